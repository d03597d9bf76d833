import { randomBytes } from "node:crypto";
import { listenError } from "../core/listen-error.js";
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import type { CheckpointStore } from "../journal/checkpoint-store.js";
import type { Tool } from "../core/tools/define-tool.js";
import { RunWatch } from "./run-watch.js";
import type { ContinueRun } from "./ui-decisions.js";
import { tokenCookie } from "./ui-http.js";
import { uiApp } from "./ui-app.js";

export interface UiOptions {
  store: CheckpointStore;
  /** How the store is named on the command line (`--store`), for the commands the page shows. */
  storeFlag?: string;
  /** Where to listen: 127.0.0.1 unless told otherwise. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The access token every request needs; a random one when absent. */
  token?: string;
  /**
   * Continues a run with a person's decision (the `planloop ui` command does what `planloop
   * runs approve` does). Without it, a decision is not taken here: the page shows the command
   * that takes it.
   */
  continueRun?: ContinueRun;
  /** Why `continueRun` cannot continue a run (see `UiAppOptions.cannotContinue`): its decisions are refused, not answered and lost. */
  cannotContinue?: (runId: string) => Promise<string | undefined>;
  /** The run's tools, for checking an edited plan's tool names and arguments. */
  tools?: readonly Tool[];
  /** How often the store is looked at for runs that moved, for the page's live updates (ms). */
  pollMs?: number;
  /** The built page; default: the one the package was built with. */
  appFolder?: string;
}

export interface UiServer {
  /** The URL to open, with the token. */
  url: string;
  token: string;
  close(): Promise<void>;
}

/** The names a server on the loopback answers for (no DNS rebinding); undefined for one listening elsewhere. */
export function loopbackHosts(host: string, port: number): string[] | undefined {
  const named = host.includes(":") ? `[${host}]` : host;
  const loopback = host === "127.0.0.1" || host === "::1" || host === "localhost";
  return loopback ? [`${named}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`] : undefined;
}

/**
 * Serves the web app over a store: the page, its JSON API (docs/ui.md) and a stream of the
 * runs that moved. Every request needs the token; see `checkOrigin` for cross-site requests.
 */
export async function startUi(options: UiOptions): Promise<UiServer> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? randomBytes(24).toString("base64url");
  const watch = new RunWatch(options.store, options.pollMs ?? 500);
  let hosts: string[] | undefined = [];
  let port = 0;
  const { app, settled } = uiApp({
    ...options,
    watch,
    token,
    // Named for this port: another server on 127.0.0.1 never receives it.
    cookie: () => ({ name: tokenCookie(port), path: "/" }),
    hosts: () => hosts,
    folder: options.appFolder ?? builtPage(),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 0 }, () => resolve(started));
    started.once("error", (error) => reject(listenError(error, { host, port: options.port })));
  });
  port = (server.address() as AddressInfo).port;
  hosts = loopbackHosts(host, port);
  const named = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${named}:${port}/?token=${token}`,
    token,
    close: async () => {
      watch.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
      await settled();
    },
  };
}

/**
 * Where the built page is: beside this module in the package (dist/ui/app); run from the
 * source (tests, tsx), the one `npm run build` made.
 */
export function builtPage(): string {
  const candidates = [new URL("./app/", import.meta.url), new URL("../../dist/ui/app/", import.meta.url)].map((url) => fileURLToPath(url));
  return candidates.find((folder) => existsSync(join(folder, "assets"))) ?? candidates[0]!;
}
