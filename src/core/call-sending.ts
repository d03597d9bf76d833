import { refusedByProvider, type Reservation } from "./budget.js";

/**
 * What a model call's adapter said of its sending (`ModelRequest.onSendState`): give the request
 * `onSendState`, and ask `neverSent` when the call failed. Once `"sent"`, it stays so.
 */
export class CallSending {
  private state: "unknown" | "waiting" | "sent" = "unknown";

  readonly onSendState = (state: "waiting" | "sent"): void => {
    if (this.state !== "sent") this.state = state;
  };

  /** The adapter said it was waiting and never that an attempt went out: the provider got nothing. */
  get neverSent(): boolean {
    return this.state === "waiting";
  }
}

/**
 * Ends the hold of a model call that failed. Refused by the provider with a status, or given up
 * before it was sent (cancelled while it waited for its limit's turn): nothing was spent, the hold
 * goes back. Otherwise it was cut off after it was sent (cancelled, timed out, dropped): the run's
 * hold goes back and a shared ledger (`tenantBudget`) keeps its own (`Reservation.cutOff`).
 */
export function endFailedCallHold(held: Reservation, failure: { error: unknown; aborted: boolean; sending: CallSending }): void {
  if (failure.sending.neverSent || (!failure.aborted && refusedByProvider(failure.error))) held.release();
  else held.cutOff();
}
