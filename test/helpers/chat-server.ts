// A Chat Completions server on 127.0.0.1 (random port) that answers from a script, for
// testing the HTTP adapter end to end. Each request takes the next reply.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Reply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { sse: unknown[]; delayMs?: number; /** End without [DONE], as a connection cut short does. */ cut?: boolean }
  | { hang: true }
  /** A recorded stream body, sent byte for byte. */
  | { raw: string };

export interface ChatServer {
  baseURL: string;
  requests: Array<{ body: Record<string, unknown>; headers: IncomingMessage["headers"]; at: number }>;
  close(): Promise<void>;
}

export async function startChatServer(replies: Reply[]): Promise<ChatServer> {
  const requests: ChatServer["requests"] = [];
  const open = new Set<ServerResponse>();
  const server = createServer(async (request, response) => {
    let raw = "";
    for await (const chunk of request) raw += chunk;
    requests.push({ body: JSON.parse(raw), headers: request.headers, at: Date.now() });
    const reply = replies.shift();
    if (!reply) {
      response.writeHead(500).end(JSON.stringify({ error: { message: "the test server ran out of replies" } }));
      return;
    }
    if ("hang" in reply) {
      open.add(response);
      return;
    }
    if ("raw" in reply) {
      response.writeHead(200, { "content-type": "text/event-stream" }).end(reply.raw);
      return;
    }
    if ("sse" in reply) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (const event of reply.sse) {
        response.write(`data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`);
        if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      }
      response.end(reply.cut ? "" : "data: [DONE]\n\n");
      return;
    }
    response.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers }).end(JSON.stringify(reply.json));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A non-streamed completion. */
export function completion(
  message: Record<string, unknown>,
  usage: Record<string, number> | null = { prompt_tokens: 50, completion_tokens: 10 },
) {
  return {
    json: {
      id: "x",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }],
      ...(usage ? { usage } : {}),
    },
  };
}

export function toolCall(id: string, name: string, args: string) {
  return { id, type: "function", function: { name, arguments: args } };
}
