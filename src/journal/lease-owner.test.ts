import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { leaseOwnerIsGone, leaseOwnerName } from "./lease-owner.js";

const [, , identity = ""] = leaseOwnerName().split(":");
const [namespace, boot, start] = identity.split(".");
const onLinux = identity !== "";

describe("a lease's owner", () => {
  it("names this host, this process and its identity; this process is not gone", () => {
    const name = leaseOwnerName();
    expect(name.startsWith(`${hostname()}:${process.pid}:`)).toBe(true);
    expect(leaseOwnerIsGone(name)).toBe(false);
  });

  it.runIf(onLinux)("is gone when its process in this namespace and boot has exited, or its pid now names a later process", () => {
    const exited = spawnSync(process.execPath, ["-e", ""]).pid!;
    expect(leaseOwnerIsGone(`${hostname()}:${exited}:${namespace}.${boot}.1:0badc0de`)).toBe(true);
    expect(leaseOwnerIsGone(`${hostname()}:${process.pid}:${namespace}.${boot}.${Number(start) - 1}:0badc0de`)).toBe(true);
  });

  it("is never called gone when planloop cannot tell: another host, namespace or boot, an older version's name, a name of another form", () => {
    const exited = spawnSync(process.execPath, ["-e", ""]).pid!;
    expect(leaseOwnerIsGone(`another-host.example:${exited}:${identity}:0badc0de`)).toBe(false);
    // A container that shares this host's name has pids of its own: a pid not seen here may be alive there.
    expect(leaseOwnerIsGone(`${hostname()}:${exited}:1.${boot}.1:0badc0de`)).toBe(false);
    expect(leaseOwnerIsGone(`${hostname()}:${exited}:${namespace}.000000000000.1:0badc0de`)).toBe(false);
    expect(leaseOwnerIsGone(`${hostname()}:${exited}:0badc0de`)).toBe(false);
    expect(leaseOwnerIsGone("ci-box:4242")).toBe(false);
    expect(leaseOwnerIsGone("another process")).toBe(false);
  });
});
