import { isRecord } from "../is-record.js";
import { mapSubschemas } from "./schema-nodes.js";

/**
 * A schema whose `if`/`then`/`else` are written as `anyOf: [{ allOf: [if, then] }, { allOf:
 * [{ not: if }, else] }]`, which means the same, annotations included. Ajv 8 counts what a
 * failed `if` evaluated as evaluated, so an `unevaluatedProperties: false` beside it let through
 * a property only the failed `if` named (the JSON-Schema-Test-Suite's "unevaluatedProperties
 * with if/then/else, then not defined"); Ajv's `anyOf` keeps only what its passing branches
 * evaluated. Done only where the document has `unevaluatedProperties` (elsewhere the error text
 * of `then` reads better), no `unevaluatedItems` (Ajv's `contains` marks items wrongly, and the
 * rewrite moves that error rather than fixing it: 4 wrong verdicts of the suite became 6), and no
 * `$ref` into a conditional (its place moves).
 * Takes a document whose references are pointers (`resolvedReferences`): a copied `if` holds no `$id`.
 */
export function withUnevaluatedConditionals(schema: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(schema);
  if (!text.includes('"unevaluatedProperties"') || text.includes('"unevaluatedItems"')) return schema;
  if (/"\$ref":"#[^"]*\/(if|then|else)(\/|")/.test(text)) return schema;
  // Each `if` is written twice (as itself and under `not`), so an `if` inside an `if` doubles: a
  // 1 KB schema of 16 nested ones became millions of nodes. Past a few times its size, Ajv reads it as written.
  const { written, rewrittenSize } = sizes(schema);
  if (rewrittenSize > Math.max(2_000, 4 * written)) return schema;
  return rewritten(schema) as Record<string, unknown>;
}

/** The schema nodes of a document, and of it rewritten (without making it). */
function sizes(node: unknown): { written: number; rewrittenSize: number } {
  if (!isRecord(node)) return { written: 1, rewrittenSize: 1 };
  let written = 1;
  let rewrittenSize = 1;
  mapSubschemas(node, (sub, key) => {
    const inner = sizes(sub);
    written += inner.written;
    // The condition goes in twice, with an allOf, an anyOf and a not around.
    rewrittenSize += key === "if" ? 2 * inner.rewrittenSize + 4 : inner.rewrittenSize;
    return sub;
  });
  return { written, rewrittenSize };
}

function rewritten(node: unknown): unknown {
  if (!isRecord(node)) return node;
  const copy = mapSubschemas(node, rewritten);
  if (!Object.hasOwn(copy, "if")) return { ...copy };
  const { if: condition, then: whenTrue = true, else: whenFalse = true, ...rest } = copy;
  const conditional = { anyOf: [{ allOf: [condition, whenTrue] }, { allOf: [{ not: condition }, whenFalse] }] };
  return { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), conditional] };
}
