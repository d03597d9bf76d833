import { toModelFunction, type Model } from "../core/model.js";
import { CliError } from "./cli-error.js";
import { importUserModule } from "./load-tools.js";

/** Where the docs say what a model module exports (the message of a module that does not). */
export const modelModuleDoc = "docs/models.md#a-model-module-for-the-command-line";

/**
 * The model a module of the user's exports (`--model ./model.mjs`): its `model` export, or its
 * default export, when that is a model (a function of a request, or an object with
 * `generate(request)`). Else a `CliError` that says what the module exported instead, what a
 * model module must export, and where the docs say it.
 */
export async function modelFromModule(path: string): Promise<Model> {
  const exports = await importUserModule(path, "the model");
  const model = [exports.model, exports.default].find((value) => toModelFunction(value) !== undefined);
  if (model !== undefined) return model as Model;
  throw new CliError(
    `${path} does not export a model: ${whatItExports(exports)}. A model module exports \`model\` (or a default export): ` +
      'a function (request) => decision, or an object with generate(request) such as openAICompatible({ baseURL, model }) or fromAISDK(anthropic("…")); ' +
      `see ${modelModuleDoc}`,
  );
}

/** What the module gave instead of a model, in the words of the mistakes people make. */
function whatItExports(exports: Record<string, unknown>): string {
  const [name, value] = exports.model !== undefined ? ["model", exports.model] : ["default", exports.default];
  if (value === undefined) {
    const names = Object.keys(exports);
    return names.length === 0
      ? "it exports nothing"
      : `it has no \`model\` export and no default export (its exports: ${names.join(", ")})`;
  }
  if (isObject(value) && ("doGenerate" in value || "specificationVersion" in value))
    return `its ${name} export is an AI SDK model, which planloop reads through an adapter: export fromAISDK(<that model>)`;
  if (isObject(value) && typeof value.then === "function")
    return `its ${name} export is a promise: await it in the module (export const model = await …)`;
  if (isObject(value)) {
    const keys = Object.keys(value);
    return `its ${name} export is an object without generate(request)${keys.length === 0 ? "" : ` (its keys: ${keys.slice(0, 8).join(", ")})`}`;
  }
  return `its ${name} export is ${value === null ? "null" : `a ${typeof value}`}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
