import { admitCall, callExecution, runAdmittedCall, type CallResult, type GuardedCallOptions } from "../../src/core/tools/guarded-call.js";

/** A tool call made the plain way, as the ReAct loop makes each: `admitCall`, then `runAdmittedCall`. */
export async function plainCall(options: GuardedCallOptions): Promise<CallResult> {
  const verdict = await admitCall(options);
  if (verdict.kind !== "run") return verdict;
  return { kind: "ran", ...(await runAdmittedCall(options.call, verdict, callExecution(options))) };
}
