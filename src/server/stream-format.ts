import { aiSdkFormat } from "./ai-sdk-stream.js";
import { agUiFormat } from "./ag-ui-stream.js";
import type { Frame, StreamFormat } from "./stream-frame.js";

export type { Frame, StreamFormat };

export const streamFormats = ["planloop", "ai-sdk", "ag-ui"] as const;
export type StreamFormatName = (typeof streamFormats)[number];

/** planloop's own events as they are, and an `end` event with the run's status. */
function planloopFormat(): StreamFormat {
  return {
    headers: {},
    opening: () => [],
    absorb: () => {},
    frames: (event) => [{ data: JSON.stringify(event) }],
    closing: (end) => [{ event: "end", data: JSON.stringify(end) }],
  };
}

export function streamFormat(name: StreamFormatName, runId: string): StreamFormat {
  if (name === "ai-sdk") return aiSdkFormat(runId);
  if (name === "ag-ui") return agUiFormat(runId);
  return planloopFormat();
}
