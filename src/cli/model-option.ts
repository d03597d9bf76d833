import { resolve } from "node:path";
import type { Model } from "../core/model.js";
import { openAICompatible } from "../models/openai-compatible.js";
import { CliError } from "./cli-error.js";
import { declaresLimit, limitArguments, limitFromFlags, type LimitFlags } from "./limit-option.js";
import { modelFromModule } from "./model-module.js";

export interface ModelFlags extends LimitFlags {
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
}

/**
 * The model the flags name: `--model openai:<name>` (key from OPENAI_API_KEY, base URL from
 * OPENAI_BASE_URL or OpenAI's), `--base-url <url> --model <name>` for any OpenAI-compatible
 * server, or `--model ./model.mjs`, a module whose `model` or default export is a planloop
 * model (a function, `openAICompatible(...)`, `fromAISDK(anthropic("…"))`: any AI SDK
 * provider). Undefined without flags: the caller uses the offline model.
 */
export async function modelFromFlags(flags: ModelFlags, env: NodeJS.ProcessEnv = process.env): Promise<Model | undefined> {
  if (!flags.model && !flags.baseUrl) return undefined;
  if (!flags.model) throw new CliError("--base-url needs --model <name> too");
  if (isModulePath(flags.model)) {
    if (flags.baseUrl) throw new CliError(`--model ${flags.model} is a module: it makes its own model, so leave out --base-url`);
    if (declaresLimit(flags))
      throw new CliError(`--model ${flags.model} is a module: declare its limit there (openAICompatible({ …, limit: providerLimit(…) }))`);
    return modelFromModule(flags.model);
  }
  const keyName = flags.apiKeyEnv ?? "OPENAI_API_KEY";
  if (flags.baseUrl) {
    const apiKey = env[keyName];
    const limit = limitFromFlags(flags, `${flags.baseUrl} ${flags.model}`, env);
    return openAICompatible({ baseURL: flags.baseUrl, model: flags.model, ...(apiKey ? { apiKey } : {}), ...(limit ? { limit } : {}) });
  }
  const match = /^openai:(.+)$/.exec(flags.model);
  if (!match)
    throw new CliError(
      `--model ${flags.model}: write openai:<name>, pass --base-url for an OpenAI-compatible server, or name a module (./model.mjs)`,
    );
  const apiKey = env[keyName];
  if (!apiKey) throw new CliError(`--model ${flags.model} needs an API key in ${keyName}`);
  const baseURL = env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
  const limit = limitFromFlags(flags, `${baseURL} ${match[1]!}`, env);
  return openAICompatible({ baseURL, apiKey, model: match[1]!, ...(limit ? { limit } : {}) });
}

/** A path to a module (./model.mjs, /abs/model.js, model.ts), not a model's name. */
function isModulePath(spec: string): boolean {
  return /^(\.{1,2}\/|\/)/.test(spec) || /\.(?:[cm]?js|[cm]?ts)$/.test(spec);
}

/** The model flags again, for the command that resumes a run (the key stays in its variable). */
export function modelArguments(flags: ModelFlags): string[] {
  return [
    // A module by its absolute path: the command may be run from another folder.
    ...(flags.model ? ["--model", isModulePath(flags.model) ? resolve(flags.model) : flags.model] : []),
    ...(flags.baseUrl ? ["--base-url", flags.baseUrl] : []),
    ...(flags.apiKeyEnv && flags.apiKeyEnv !== "OPENAI_API_KEY" ? ["--api-key-env", flags.apiKeyEnv] : []),
    // The limit the run was started with holds when it is continued (the launch line checks them).
    ...limitArguments(flags),
  ];
}
