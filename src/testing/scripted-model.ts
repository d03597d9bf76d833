import { sleep, type Clock } from "../core/clock.js";
import { PlanloopError } from "../core/errors.js";
import type { Message } from "../core/messages.js";
import type { ModelAdapter, ModelDecision, ModelPurpose, ModelRequest, TextStreamPart } from "../core/model.js";
import type { Usage } from "../core/usage.js";

export type ScriptedReply = ModelDecision | ((request: ModelRequest) => ModelDecision | Promise<ModelDecision>);

/** A reply that also asserts the purpose of the request it answers. */
export interface ScriptedTurn {
  purpose: ModelPurpose;
  reply: ScriptedReply;
}

/** A text answer delivered in chunks, `delayMs` apart on the model's clock. */
export interface ScriptedStream {
  purpose?: ModelPurpose;
  stream: string[];
  delayMs?: number;
  usage?: Usage;
}

type Turn = ScriptedReply | ScriptedTurn | ScriptedStream;

/** A request as the scripted model saw it: the messages are copied at call time. */
export interface RecordedRequest {
  messages: Message[];
  step: number;
  purpose: ModelPurpose;
  toolNames: string[];
  /** The run's tenant the request carried, if any. */
  tenant?: string | undefined;
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
  private readonly turns: ReadonlyArray<Turn>;
  private readonly clock: Clock | undefined;

  /** `clock` times the gaps between streamed chunks (a `FakeClock` in tests). */
  constructor(turns: ReadonlyArray<Turn>, options: { clock?: Clock } = {}) {
    this.turns = turns;
    this.clock = options.clock;
  }

  get remaining(): number {
    return this.turns.length - this.requests.length;
  }

  async generate(request: ModelRequest): Promise<ModelDecision> {
    const turn = this.take(request);
    if (isStream(turn)) return { type: "final", content: turn.stream.join(""), ...(turn.usage ? { usage: turn.usage } : {}) };
    return typeof turn.reply === "function" ? turn.reply(request) : turn.reply;
  }

  /** Streams a scripted stream turn chunk by chunk; a plain final reply arrives as one chunk. */
  async *streamText(request: ModelRequest): AsyncGenerator<TextStreamPart> {
    const turn = this.take(request);
    if (!isStream(turn)) {
      const decision = typeof turn.reply === "function" ? await turn.reply(request) : turn.reply;
      if (decision.type !== "final") throw new ScriptedModelError("ScriptedModel: a streamed request got a tool_calls reply");
      yield { type: "text", text: decision.content };
      if (decision.usage) yield { type: "usage", usage: decision.usage };
      return;
    }
    for (const [index, text] of turn.stream.entries()) {
      if (index > 0 && turn.delayMs) await sleep(turn.delayMs, { ...(this.clock ? { clock: this.clock } : {}), signal: request.signal });
      yield { type: "text", text };
    }
    if (turn.usage) yield { type: "usage", usage: turn.usage };
  }

  /** Records the request and returns the next turn, as a reply or a stream. */
  private take(request: ModelRequest): { reply: ScriptedReply } | ScriptedStream {
    const index = this.requests.length;
    this.requests.push({
      messages: [...request.messages],
      step: request.step,
      purpose: request.purpose,
      toolNames: request.tools.map((tool) => tool.name),
      ...(request.tenant === undefined ? {} : { tenant: request.tenant }),
    });
    const turn = this.turns[index];
    if (turn === undefined) {
      throw new ScriptedModelError(
        `ScriptedModel: unexpected call #${index + 1} (purpose "${request.purpose}"); the script has only ${this.turns.length} replies`,
      );
    }
    const scripted: ({ reply: ScriptedReply } | ScriptedStream) & { purpose?: ModelPurpose } =
      isStream(turn) || isTurn(turn) ? turn : { reply: turn };
    if (scripted.purpose !== undefined && scripted.purpose !== request.purpose) {
      throw new ScriptedModelError(
        `ScriptedModel: call #${index + 1} has purpose "${request.purpose}", the script expected "${scripted.purpose}"`,
      );
    }
    return scripted;
  }

  /** Throws when replies are left over: the code under test made fewer calls than scripted. */
  assertDone(): void {
    if (this.remaining > 0) {
      throw new ScriptedModelError(`ScriptedModel: ${this.remaining} scripted replies were never requested`);
    }
  }
}

function isTurn(value: Turn): value is ScriptedTurn {
  return typeof value === "object" && value !== null && "reply" in value;
}

function isStream(value: Turn | { reply: ScriptedReply } | ScriptedStream): value is ScriptedStream {
  return typeof value === "object" && value !== null && "stream" in value;
}
