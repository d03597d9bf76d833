import { resolve } from "node:path";
import type { Command } from "commander";
import { serveMcpOverStdio } from "../../server/mcp-stdio-route.js";
import { RunChanges } from "../../server/run-changes.js";
import { RunHost } from "../../runs/run-host.js";
import { serverSecret } from "./serve-api.js";
import type { CliIo } from "../cli-io.js";
import { importUserModule, loadTools } from "../load-tools.js";
import { readPipelines } from "../../runs/pipelines.js";
import { modelFromFlags } from "../model-option.js";
import { defaultStore, openStore } from "../store-option.js";

/**
 * `planloop mcp`: planloop as an MCP server over stdio (docs/mcp.md), for Claude Desktop,
 * Claude Code, Cursor or any MCP client. Stdout carries the protocol and nothing else; what
 * planloop has to say goes to stderr.
 */
export function mcpCommand(program: Command, io: CliIo): void {
  program
    .command("mcp")
    .requiredOption("--tools <module>", "the tools the runs use")
    .option("--model <spec>", "the model for tasks (ask) and agent steps: openai:<name>, or a module (./model.mjs)")
    .option("--base-url <url>", "an OpenAI-compatible server for --model <name>")
    .option("--store <sqlite:path|postgres://…>", "where runs are kept", defaultStore)
    .action(async (flags: { tools: string; model?: string; baseUrl?: string; store: string }) => {
      const tools = await loadTools(flags.tools);
      const pipelines = readPipelines((await importUserModule(flags.tools, "tools")).pipelines, flags.tools);
      const model = await modelFromFlags({
        ...(flags.model ? { model: flags.model } : {}),
        ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      });
      const storeFlag = flags.store.startsWith("sqlite:") ? `sqlite:${resolve(flags.store.slice("sqlite:".length))}` : flags.store;
      const store = await openStore(storeFlag, { readonly: false });
      const changes = new RunChanges();
      const secret = serverSecret();
      const host = new RunHost({
        store,
        tools,
        model,
        secret,
        onActivity: (runId, event) => changes.changed(runId, event),
      });
      const serving = serveMcpOverStdio({ store, host, changes, pipelines, secret, log: (line) => io.err(line) });
      io.err(
        `planloop mcp: serving ${storeFlag} on stdio, ${tools.length} tools, ${pipelines.length} pipelines${model ? ", with a model" : " (no model: plans only)"}`,
      );
      await serving;
      // Runs in hand go on to their next stop; the journal keeps them for the next process otherwise.
      await host.close();
      await store.close();
      io.exitCode(0);
    });
}
