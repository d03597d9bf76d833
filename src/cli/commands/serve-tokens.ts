import type { Command } from "commander";
import { addToken, apiScopes, listTokens, removeToken } from "../../server/api-tokens.js";
import { InvalidOptionsError } from "../../core/errors.js";
import { CliError } from "../cli-error.js";
import type { CliIo } from "../cli-io.js";
import { usingStore } from "../continue-run.js";
import { defaultStore, storeFlag } from "../store-option.js";

/**
 * `planloop serve tokens add|list|remove`: the tokens the run server takes, kept hashed in the
 * store. `add` prints the token once; nothing can print it again.
 *
 * The store is `serve`'s own `--store`: commander gives a parent's options to the parent
 * wherever they stand (`serve --store X tokens add` and `serve tokens add … --store X` alike),
 * so the subcommands read it from there and declare none of their own, which would only ever
 * hold its default.
 */
export function serveTokensCommand(serve: Command, io: CliIo): void {
  const tokens = serve
    .command("tokens")
    .description("Add, list and remove the tokens the run server takes (kept hashed in the store named by serve's --store)");
  storeHelp(tokens.command("add <name>"))
    .description(`Make a token and print it once; --scope is one or more of ${apiScopes.join(", ")}`)
    .requiredOption("--scope <scopes>", "what it may do, comma-separated: read, decide (and read), run (and read), admin (all)")
    .action((name: string, flags: { scope: string }, command: Command) =>
      usingStore(
        storeOf(command),
        async (opened) => {
          const scopes = flags.scope.split(",").map((scope) => scope.trim());
          const made = await addToken(opened, { name, scopes }).catch((error: unknown) => {
            throw error instanceof InvalidOptionsError ? new CliError(error.message) : error;
          });
          io.out(made.token);
          io.err(`token "${name}" (${made.kept.scopes.join(", ")}): send it as Authorization: Bearer <token>; it is not shown again`);
        },
        { readonly: false },
      ),
    );
  storeHelp(tokens.command("list"))
    .description("The tokens' names, scopes and when they were made (never the tokens)")
    .action((_flags: object, command: Command) => {
      const store = storeOf(command);
      return usingStore(store, async (opened) => {
        const kept = await listTokens(opened);
        if (kept.length === 0) io.out(`no tokens: add one with planloop serve tokens add <name> --scope …${storeFlag(store)}`);
        for (const token of kept) io.out(`${token.name}  ${token.scopes.join(",")}  made ${new Date(token.createdAt).toISOString()}`);
      });
    });
  storeHelp(tokens.command("remove <name>"))
    .description("Remove a token: the server refuses it from its next request on")
    .action((name: string, _flags: object, command: Command) =>
      usingStore(
        storeOf(command),
        async (opened) => {
          if (!(await removeToken(opened, name))) throw new CliError(`there is no token named "${name}"`);
          io.out(`token "${name}" removed`);
        },
        { readonly: false },
      ),
    );
}

function storeHelp(command: Command): Command {
  return command.addHelpText(
    "after",
    `\n  --store <sqlite:path|postgres://…>  the store the server serves, before or after the subcommand (default: "${defaultStore}")`,
  );
}

/** `serve`'s `--store` (its default when none was given), as seen from a subcommand. */
function storeOf(command: Command): string {
  return command.optsWithGlobals<{ store: string }>().store;
}
