// The AI SDK's own mock language model, of the newest specification the installed `ai` has:
// V4 with `ai` 7 (which .ci/run installs for Node 24, PLANLOOP_AI_SDK_DIR), V3 with `ai` 6.
import * as aiTest from "ai/test";
import type { fromAISDK } from "planloop";

export type MockModelInstance = Parameters<typeof fromAISDK>[0] & {
  readonly specificationVersion: string;
  readonly doGenerateCalls: Array<Record<string, unknown>>;
  readonly doStreamCalls: Array<Record<string, unknown>>;
};
type MockClass = new (settings?: Record<string, unknown>) => MockModelInstance;

const mocks = aiTest as unknown as Record<string, MockClass | undefined>;
export const MockModel: MockClass = (mocks.MockLanguageModelV4 ?? mocks.MockLanguageModelV3)!;
export const { simulateReadableStream } = aiTest;
