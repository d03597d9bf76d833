// Signed jobs (issue 44 item 2): a signature holds for its job id only, and for a day.
import { describe, expect, it } from "vitest";
import { signJob, signedJobLifetimeMs, verifiedJob } from "../../src/workers/job-signature.js";

const secret = "a queue secret of 16+ chars";
const job = { kind: "tool", runId: "r", stepKey: "step:1", attempt: 1, owner: 3, call: { id: "step:1", name: "wire", arguments: {} } };

describe("job signatures", () => {
  it("hold for the job's id and its fields, until they run out", () => {
    const signed = signJob(job, secret, "tool/r/step%3A1/1", 1_000);
    expect(verifiedJob(signed, secret, "tool/r/step%3A1/1", 1_000 + signedJobLifetimeMs)).toEqual(job);
    expect(verifiedJob(signed, secret, "tool/r/step%3A1/1", 1_001 + signedJobLifetimeMs)).toBe("expired");
    expect(verifiedJob(signed, secret, "copy-1", 1_000)).toBeUndefined();
    expect(verifiedJob({ ...signed, owner: 4 }, secret, "tool/r/step%3A1/1", 1_000)).toBeUndefined();
    expect(verifiedJob({ ...signed, signedUntil: 9e15 }, secret, "tool/r/step%3A1/1", 1_000)).toBeUndefined();
    expect(verifiedJob(signed, "another secret of 16+ chars", "tool/r/step%3A1/1", 1_000)).toBeUndefined();
  });

  it("without a secret, a job is taken as it is", () => {
    expect(signJob(job, undefined, "x")).toBe(job);
    expect(verifiedJob(job, undefined, "x")).toBe(job);
  });
});
