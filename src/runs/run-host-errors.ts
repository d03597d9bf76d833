import { PlanloopError } from "../core/errors.js";

/** A run this server started that it cannot run as it is now (other tools, no model): nothing is decided or run. */
export class CannotContinueError extends PlanloopError {
  constructor(
    readonly runId: string,
    why: string,
  ) {
    super(
      `run "${runId}" cannot be continued by this server: ${why}; continue it from a server with the tools and model it was started with`,
    );
    this.name = "CannotContinueError";
  }
}

/** A run this server did not start: it does not know how to continue it. */
export class NotHostedError extends PlanloopError {
  constructor(readonly runId: string) {
    super(`run "${runId}" was not started by this server; decide it where it runs (planloop runs approve|deny|answer)`);
    this.name = "NotHostedError";
  }
}
