import type { Model } from "../core/model.js";
import { openAICompatible } from "../models/openai-compatible.js";
import { CliError } from "./cli-error.js";

export interface ModelFlags {
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
}

/**
 * The model the flags name: `--model openai:<name>` (key from OPENAI_API_KEY, base URL from
 * OPENAI_BASE_URL or OpenAI's), or `--base-url <url> --model <name>` for any
 * OpenAI-compatible server. Undefined without flags: the caller uses the offline model.
 */
export function modelFromFlags(flags: ModelFlags, env: NodeJS.ProcessEnv = process.env): Model | undefined {
  if (!flags.model && !flags.baseUrl) return undefined;
  if (!flags.model) throw new CliError("--base-url needs --model <name> too");
  const keyName = flags.apiKeyEnv ?? "OPENAI_API_KEY";
  if (flags.baseUrl) {
    const apiKey = env[keyName];
    return openAICompatible({ baseURL: flags.baseUrl, model: flags.model, ...(apiKey ? { apiKey } : {}) });
  }
  const match = /^openai:(.+)$/.exec(flags.model);
  if (!match) throw new CliError(`--model ${flags.model}: write openai:<name>, or pass --base-url for an OpenAI-compatible server`);
  const apiKey = env[keyName];
  if (!apiKey) throw new CliError(`--model ${flags.model} needs an API key in ${keyName}`);
  return openAICompatible({ baseURL: env.OPENAI_BASE_URL ?? "https://api.openai.com/v1", apiKey, model: match[1]! });
}

/** The model flags again, for the command that resumes a run (the key stays in its variable). */
export function modelArguments(flags: ModelFlags): string[] {
  return [
    ...(flags.model ? ["--model", flags.model] : []),
    ...(flags.baseUrl ? ["--base-url", flags.baseUrl] : []),
    ...(flags.apiKeyEnv && flags.apiKeyEnv !== "OPENAI_API_KEY" ? ["--api-key-env", flags.apiKeyEnv] : []),
  ];
}
