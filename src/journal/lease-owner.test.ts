import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { leaseOwnerIsGone, leaseOwnerName } from "./lease-owner.js";

describe("a lease's owner", () => {
  it("names this host, this process and its start; this process is not gone", () => {
    const name = leaseOwnerName();
    expect(name.startsWith(`${hostname()}:${process.pid}:`)).toBe(true);
    expect(leaseOwnerIsGone(name)).toBe(false);
  });

  it("is gone when its process on this host has exited, or its pid now names a later process", () => {
    const exited = spawnSync(process.execPath, ["-e", ""]).pid!;
    expect(leaseOwnerIsGone(`${hostname()}:${exited}:123:0badc0de`)).toBe(true);
    // An older version's name (no start time) of an exited process.
    expect(leaseOwnerIsGone(`${hostname()}:${exited}:0badc0de`)).toBe(true);
    const [, , start] = leaseOwnerName().split(":");
    if (start !== "") expect(leaseOwnerIsGone(`${hostname()}:${process.pid}:${Number(start) - 1}:0badc0de`)).toBe(true);
  });

  it("is never called gone when planloop cannot tell: another host, an alive pid of an older name, a name of another form", () => {
    expect(leaseOwnerIsGone(`another-host.example:${process.pid}:1:0badc0de`)).toBe(false);
    expect(leaseOwnerIsGone(`${hostname()}:${process.pid}:0badc0de`)).toBe(false);
    expect(leaseOwnerIsGone("ci-box:4242")).toBe(false);
    expect(leaseOwnerIsGone("another process")).toBe(false);
  });
});
