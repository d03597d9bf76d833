import { defaultMaxRecoveries } from "../journal/checkpoints.js";
import { toolFailure } from "../core/tools/tool-runner.js";
import type { AgentRun } from "./agent-run.js";
import type { OpenRound } from "./agent-state.js";
import { unfinishedCalls } from "./durable-agent.js";

/**
 * A durable loop continuing a round whose calls a crash cut short: it keeps a mark that it runs
 * them again (so the next crash counts), or, when the round was cut short more often than
 * `maxRecoveries` allows, gives each of them a tool error the model reads instead of running it
 * once more — a call that takes its process down does not do so on every restart for ever.
 */
export async function recoverRound(run: AgentRun, round: OpenRound): Promise<void> {
  const checkpoints = run.checkpoints;
  if (checkpoints === undefined || round.cutShort === undefined) return;
  const places = unfinishedCalls(round);
  if (places.length === 0) return;
  const allowed = checkpoints.durability.maxRecoveries ?? defaultMaxRecoveries;
  if (round.cutShort <= allowed) {
    checkpoints.write([{ kind: "round-resumed", turn: round.step }]);
    await checkpoints.commit();
    return;
  }
  for (const position of places) {
    const name = round.calls[position]!.name;
    const outcome = toolFailure(
      "execution_failed",
      `"${name}" was cut short ${round.cutShort} times (the process running it stopped each time), so it was not run again (maxRecoveries: ${allowed})`,
    );
    round.outcomes[position] = outcome;
    checkpoints.write([{ kind: "call-end", turn: round.step, position, outcome }]);
  }
  await checkpoints.commit();
}
