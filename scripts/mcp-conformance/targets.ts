// The two faces the MCP conformance suite reads, each started from the source on a store of its
// own and put behind an HTTP address on 127.0.0.1 the suite can take (it sends no token, and it
// speaks HTTP only): `planloop serve`'s /mcp behind a proxy that adds the session token, and
// `planloop mcp` behind a bridge that gives each HTTP session a `planloop mcp` process of its own.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface Started {
  /** The address the suite is pointed at. */
  url: string;
  stop(): Promise<void>;
}

const root = join(import.meta.dirname, "..", "..");
const cli = (...args: string[]) => ["--import", "tsx", join(root, "src", "cli", "main.ts"), ...args];
const toolsModule = join(import.meta.dirname, "tools.ts");

/** `planloop serve --port 0`, and a proxy in front of its /mcp that adds the session token it printed. */
export async function startServe(store: string): Promise<Started> {
  const serve = spawn(process.execPath, cli("serve", "--tools", toolsModule, "--store", store, "--port", "0"), {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const printed = await linesUntil(serve, /session token[^:]*: (\S+)/);
  const api = new URL(/the API is on (\S+)/.exec(printed.all)![1]!);
  const token = printed.match[1]!;
  const proxy = await listen((incoming, answer) => {
    // Host and Origin go through as the suite sent them: the server's own checks are what is read.
    const out = request(
      {
        host: api.hostname,
        port: api.port,
        path: "/mcp",
        method: incoming.method,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` },
      },
      (back) => {
        answer.writeHead(back.statusCode ?? 502, back.headers);
        back.pipe(answer);
      },
    );
    out.on("error", (error) => answer.writeHead(502).end(String(error)));
    incoming.pipe(out);
  });
  return { url: `${addressOf(proxy)}/mcp`, stop: async () => (await close(proxy), await ended(serve)) };
}

/** `planloop mcp` over stdio, one process per HTTP session, behind the SDK's Streamable HTTP server transport. */
export async function startStdio(store: string): Promise<Started> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const children: StdioClientTransport[] = [];
  const bridge = await listen((incoming, answer) => {
    const id = incoming.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    void (known ? Promise.resolve(known) : session()).then((front) => front.handleRequest(incoming, answer));
  });
  async function session(): Promise<StreamableHTTPServerTransport> {
    const child = new StdioClientTransport({
      command: process.execPath,
      args: cli("mcp", "--tools", toolsModule, "--store", store),
      cwd: root,
      stderr: "ignore",
    });
    const front: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, front),
    });
    front.onmessage = (message) => void child.send(message);
    child.onmessage = (message) => void front.send(message);
    front.onclose = () => void child.close();
    children.push(child);
    await child.start();
    return front;
  }
  return {
    url: `${addressOf(bridge)}/mcp`,
    stop: async () => {
      await close(bridge);
      await Promise.all(children.map((child) => child.close()));
    },
  };
}

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function addressOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Reads the child's output until a line matches (a minute at most: a cold tsx start is slow on a busy machine). */
function linesUntil(child: ChildProcess, pattern: RegExp): Promise<{ match: RegExpExecArray; all: string }> {
  return new Promise((resolve, reject) => {
    let all = "";
    const timer = setTimeout(() => reject(new Error(`planloop serve printed no session token in 60 s:\n${all}`)), 60_000);
    const read = (chunk: Buffer) => {
      all += chunk.toString();
      const match = pattern.exec(all);
      if (match) (clearTimeout(timer), resolve({ match, all }));
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`planloop serve ended (${code}):\n${all}`))));
  });
}

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return exited;
}
