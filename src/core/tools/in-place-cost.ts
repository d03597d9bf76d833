import { isRecord } from "../is-record.js";
import { mapSubschemas } from "./schema-nodes.js";

/** Keywords whose schemas apply to the same value as the node they are in (not to a property or an item of it). */
const inPlace = /^(allOf|anyOf|oneOf|not|if|then|else|dependentSchemas)(\/|$)/;
/** Keywords whose schemas apply only where referred to. */
const definitions = /^(\$defs|definitions)\//;

/**
 * How many schema nodes checking one value against the document's root may visit, at most, where
 * each `$ref` (a JSON Pointer: the document is resolved) is followed: `allOf: [{ $ref: next },
 * { $ref: next }]` nested 30 times is 2^30 for every value, which no validator gets through.
 * A loop (a schema applied to the same value again for ever) counts once. What a
 * property or an item is checked against counts apart: it costs once per part of the value.
 */
export function inPlaceCost(root: Record<string, unknown>): number {
  const costs = new Map<unknown, number>();
  const cost = (node: unknown): number => {
    if (!isRecord(node)) return 1;
    const known = costs.get(node);
    if (known !== undefined) return known;
    // Met again before it is known: a loop, which the checker leaves at once (its stack overflows; the call fails).
    costs.set(node, 1);
    let total = 1;
    mapSubschemas(node, (sub, key) => {
      if (inPlace.test(key)) total += cost(sub);
      return sub;
    });
    for (const keyword of ["$ref", "$dynamicRef"]) {
      const reference = node[keyword];
      if (typeof reference === "string") total += cost(target(root, reference));
    }
    costs.set(node, total);
    return total;
  };
  // Every node a value may be checked against (definitions nothing refers to are not).
  let worst = 0;
  const reached = new Set<unknown>([root]);
  const pending: unknown[] = [root];
  const reach = (node: unknown) => {
    if (!isRecord(node) || reached.has(node)) return;
    reached.add(node);
    pending.push(node);
  };
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (!isRecord(node)) continue;
    worst = Math.max(worst, cost(node));
    mapSubschemas(node, (sub, key) => {
      if (!definitions.test(key)) reach(sub);
      return sub;
    });
    for (const keyword of ["$ref", "$dynamicRef"]) if (typeof node[keyword] === "string") reach(target(root, node[keyword]));
  }
  return worst;
}

function target(root: Record<string, unknown>, reference: string): unknown {
  if (reference !== "#" && !reference.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of reference.slice(1).split("/").filter(Boolean)) {
    let name = part.replaceAll("~1", "/").replaceAll("~0", "~");
    try {
      name = decodeURIComponent(name);
    } catch {
      // no valid escape: as it is
    }
    node = isRecord(node) && Object.hasOwn(node, name) ? node[name] : undefined;
  }
  return node;
}
