import { isRecord } from "../is-record.js";
import { mapSubschemas } from "./schema-nodes.js";

/** Where a schema node is and what its references are read against. */
export interface SchemaPlace {
  node: Record<string, unknown>;
  /** The absolute URI (no fragment) of the resource the node is in. */
  base: string;
  /** The JSON Pointer of that resource's root ("" for the document). */
  resource: string;
}

/**
 * The identifiers of one 2020-12 document, read as the spec reads them: a `$id` or an anchor
 * counts only where a schema is (under `properties`, `items`, `$defs`…), never inside a keyword
 * planloop does not know, nor inside data (`const`, `enum`). Every node is named by its JSON
 * Pointer from the document's root.
 */
export interface SchemaResources {
  /** Every schema node by pointer. */
  places: Map<string, SchemaPlace>;
  /** The pointer of the resource a resource's root is nested in ("" has none). */
  enclosing: Map<string, string>;
  /** Per resource pointer: its `$dynamicAnchor` names and where each is. */
  dynamicAnchors: Map<string, Map<string, string>>;
  /** A URI (fragment included) to the pointer it names: a `$ref` target. */
  resolve(reference: string, base: string): string | undefined;
}

/** The base a document without `$id` is read against: relative references still resolve. */
const documentBase = "planloop:/tool-input-schema";

/**
 * The document's resources, or `undefined` where it uses what this reading does not follow
 * (an `$id` that is not a URI, or one with a fragment: draft-07's way of naming an anchor).
 */
export function schemaResources(root: Record<string, unknown>): SchemaResources | undefined {
  const places = new Map<string, SchemaPlace>();
  const enclosing = new Map<string, string>();
  const resources = new Map<string, string>();
  const anchors = new Map<string, string>();
  const dynamicAnchors = new Map<string, Map<string, string>>();
  let understood = true;
  const visit = (node: unknown, pointer: string, base: string, resource: string) => {
    if (!isRecord(node) || !understood) return;
    if (typeof node.$id === "string") {
      const id = absolute(node.$id, base);
      // Two resources of one URI (the spec leaves which one a reference means open): Ajv's to refuse.
      if (id === undefined || id.fragment !== "" || resources.has(id.uri)) return void (understood = false);
      if (pointer !== "") enclosing.set(pointer, resource);
      [base, resource] = [id.uri, pointer];
      resources.set(base, pointer);
    }
    places.set(pointer, { node, base, resource });
    for (const keyword of ["$anchor", "$dynamicAnchor"]) {
      if (typeof node[keyword] !== "string") continue;
      const anchor = `${base}#${node[keyword] as string}`;
      // One name on two nodes of a resource: as with a URI, which one is meant is Ajv's to refuse.
      if (anchors.has(anchor) && anchors.get(anchor) !== pointer) return void (understood = false);
      anchors.set(anchor, pointer);
    }
    if (typeof node.$dynamicAnchor === "string") {
      const named = dynamicAnchors.get(resource) ?? new Map<string, string>();
      if (!named.has(node.$dynamicAnchor)) named.set(node.$dynamicAnchor, pointer);
      dynamicAnchors.set(resource, named);
    }
    mapSubschemas(node, (sub, key) => {
      visit(sub, `${pointer}/${key}`, base, resource);
      return sub;
    });
  };
  visit(root, "", documentBase, "");
  if (!understood) return undefined;
  resources.set(documentBase, resources.get(documentBase) ?? "");
  const resolve = (reference: string, base: string): string | undefined => {
    const target = absolute(reference, base);
    if (target === undefined) return undefined;
    const resource = resources.get(target.uri);
    if (resource === undefined) return undefined;
    if (!target.fragment.startsWith("/") && target.fragment !== "") return anchors.get(`${target.uri}#${target.fragment}`);
    const pointer = resource + target.fragment;
    return places.has(pointer) ? pointer : undefined;
  };
  return { places, enclosing, dynamicAnchors, resolve };
}

/** A reference read against a base: the URI without its fragment, and the fragment decoded. */
function absolute(reference: string, base: string): { uri: string; fragment: string } | undefined {
  try {
    const url = new URL(reference, base);
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    return { uri: url.href, fragment };
  } catch {
    return undefined;
  }
}
