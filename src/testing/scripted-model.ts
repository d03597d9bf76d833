import { PlanloopError } from "../core/errors.js";
import type { Message } from "../core/messages.js";
import type { ModelAdapter, ModelDecision, ModelPurpose, ModelRequest } from "../core/model.js";

export type ScriptedReply = ModelDecision | ((request: ModelRequest) => ModelDecision | Promise<ModelDecision>);

/** A reply that also asserts the purpose of the request it answers. */
export interface ScriptedTurn {
  purpose: ModelPurpose;
  reply: ScriptedReply;
}

/** A request as the scripted model saw it: the messages are copied at call time. */
export interface RecordedRequest {
  messages: Message[];
  step: number;
  purpose: ModelPurpose;
  toolNames: string[];
}

export class ScriptedModelError extends PlanloopError {
  constructor(message: string) {
    super(message);
    this.name = "ScriptedModelError";
  }
}

/**
 * A strict model for tests: it answers with its replies in order and fails loudly on a
 * call the script did not expect, or a request with the wrong purpose.
 *
 * @example
 * const model = new ScriptedModel([
 *   { type: "tool_calls", calls: [{ id: "1", name: "clock", arguments: {} }] },
 *   { type: "final", content: "It is noon." },
 * ]);
 * await runAgent({ model, tools: [clock] });
 * model.assertDone();
 */
export class ScriptedModel implements ModelAdapter {
  readonly requests: RecordedRequest[] = [];
  private readonly turns: ReadonlyArray<ScriptedReply | ScriptedTurn>;

  constructor(turns: ReadonlyArray<ScriptedReply | ScriptedTurn>) {
    this.turns = turns;
  }

  get remaining(): number {
    return this.turns.length - this.requests.length;
  }

  async generate(request: ModelRequest): Promise<ModelDecision> {
    const index = this.requests.length;
    this.requests.push({
      messages: [...request.messages],
      step: request.step,
      purpose: request.purpose,
      toolNames: request.tools.map((tool) => tool.name),
    });
    const turn = this.turns[index];
    if (turn === undefined) {
      throw new ScriptedModelError(
        `ScriptedModel: unexpected call #${index + 1} (purpose "${request.purpose}"); the script has only ${this.turns.length} replies`,
      );
    }
    const scripted = isTurn(turn) ? turn : { purpose: undefined, reply: turn };
    if (scripted.purpose !== undefined && scripted.purpose !== request.purpose) {
      throw new ScriptedModelError(
        `ScriptedModel: call #${index + 1} has purpose "${request.purpose}", the script expected "${scripted.purpose}"`,
      );
    }
    return typeof scripted.reply === "function" ? scripted.reply(request) : scripted.reply;
  }

  /** Throws when replies are left over: the code under test made fewer calls than scripted. */
  assertDone(): void {
    if (this.remaining > 0) {
      throw new ScriptedModelError(`ScriptedModel: ${this.remaining} scripted replies were never requested`);
    }
  }
}

function isTurn(value: ScriptedReply | ScriptedTurn): value is ScriptedTurn {
  return typeof value === "object" && value !== null && "reply" in value;
}
