import { isRecord } from "../is-record.js";
import { mapSubschemas } from "./schema-nodes.js";
import { isKnownKeyword, withoutIdentifiers } from "./unknown-keywords.js";
import { schemaResources, type SchemaResources } from "./schema-resources.js";

/**
 * A 2020-12 schema whose every `$ref` and `$dynamicRef` is a JSON Pointer into the document
 * (`#/$defs/…`), with no `$id`, `$anchor` or `$dynamicAnchor` left: what the references mean is
 * worked out here, by the spec, and Ajv only follows pointers. Ajv 8 resolves a `$dynamicRef`
 * only as "#name" and not always by the dynamic scope, overflows its stack on a nested `$id`
 * referred to by a relative URI, and takes an `$id` inside an unknown keyword for a real one
 * (the JSON-Schema-Test-Suite's `dynamicRef`, `ref` and `unknownKeyword` cases).
 *
 * The dynamic scope is made static: where a node is reached through a different set of
 * outermost dynamic anchors than where it is written, a copy of it bound to that set goes under
 * the root's `$defs`, and the `$dynamicRef` becomes a `$ref` to the copy. The sets are finite
 * (one resource per anchor name at most), so the copies are too.
 *
 * `undefined` where the document uses what this does not follow (a reference to another
 * document, into a keyword that is not a schema, an `$id` with a fragment): the caller hands Ajv
 * the schema as written.
 */
export function resolvedReferences(root: Record<string, unknown>): Record<string, unknown> | undefined {
  const resources = schemaResources(root);
  if (resources === undefined) return undefined;
  try {
    return new Resolution(root, resources).document();
  } catch (error) {
    if (error instanceof Unresolved) return undefined;
    throw error;
  }
}

class Unresolved extends Error {}

/** A document whose dynamic scopes would need more copies than `maxCopiedNodes` allows: refused, never expanded. */
export class TooManyDynamicScopes extends Error {}

/** For each anchor name a `$dynamicRef` reads dynamically, the outermost resource in scope that has it. */
type Scope = ReadonlyMap<string, string>;

/**
 * Schema nodes the copies bound to dynamic scopes may hold in all, beyond the document's own:
 * the scopes a document reaches can double with each resource that enters an anchor (a 3 KB
 * schema reached 2^20 of them), so a schema that would need more is refused rather than expanded.
 */
const maxCopiedNodes = (documentNodes: number) => Math.max(2_000, 4 * documentNodes);

class Resolution {
  private readonly dynamicNames = new Set<string>();
  /** Nodes emitted so far: the document's own, then the copies'. */
  private emitted = 0;
  private readonly budget: number;
  private readonly copies = new Map<string, string>();
  private readonly copyNodes = new Map<string, unknown>();

  constructor(
    private readonly root: Record<string, unknown>,
    private readonly resources: SchemaResources,
  ) {
    this.budget = resources.places.size + maxCopiedNodes(resources.places.size);
    for (const [pointer, place] of resources.places) {
      const reference = place.node.$dynamicRef;
      if (typeof reference !== "string") continue;
      const name = this.dynamicName(reference, this.target(reference, pointer));
      if (name !== undefined) this.dynamicNames.add(name);
    }
  }

  document(): Record<string, unknown> {
    const rewritten = this.emit("", this.enter(new Map(), ""));
    if (this.copyNodes.size === 0) return rewritten;
    const definitions = isRecord(rewritten.$defs) ? rewritten.$defs : {};
    return { ...rewritten, $defs: { ...definitions, ...Object.fromEntries(this.copyNodes) } };
  }

  /** The node at `pointer` rewritten, read in `scope`. */
  private emit(pointer: string, scope: Scope): Record<string, unknown> {
    const { node } = this.resources.places.get(pointer)!;
    if (++this.emitted > this.budget)
      throw new TooManyDynamicScopes(
        `its $dynamicRefs reach its schemas through more dynamic scopes than planloop follows (over ${this.budget - this.resources.places.size} schema nodes to copy)`,
      );
    const inner = typeof node.$id === "string" ? this.enter(scope, pointer) : scope;
    const copy = mapSubschemas(node, (sub, key) => (isRecord(sub) ? this.emit(`${pointer}/${key}`, inner) : sub));
    for (const [key, value] of Object.entries(copy)) if (!isKnownKeyword(key)) copy[key] = withoutIdentifiers(value);
    delete copy.$id;
    delete copy.$anchor;
    delete copy.$dynamicAnchor;
    if (typeof node.$ref === "string") copy.$ref = this.pointerTo(this.target(node.$ref, pointer), inner);
    if (typeof node.$dynamicRef === "string") {
      delete copy.$dynamicRef;
      const dynamic = { $ref: this.pointerTo(this.dynamicTarget(node.$dynamicRef, pointer, inner), inner) };
      if (copy.$ref === undefined) copy.$ref = dynamic.$ref;
      else copy.allOf = [...(Array.isArray(copy.allOf) ? copy.allOf : []), dynamic];
    }
    return { ...copy };
  }

  private target(reference: string, from: string): string {
    const target = this.resources.resolve(reference, this.resources.places.get(from)!.base);
    if (target === undefined) throw new Unresolved(reference);
    return target;
  }

  /** The anchor name a `$dynamicRef` looks up in the dynamic scope, if its first target is a `$dynamicAnchor` of that name. */
  private dynamicName(reference: string, target: string): string | undefined {
    const hash = reference.indexOf("#");
    const name = hash === -1 ? "" : decodeURIComponent(reference.slice(hash + 1));
    if (name === "" || name.startsWith("/")) return undefined;
    return this.resources.places.get(target)!.node.$dynamicAnchor === name ? name : undefined;
  }

  private dynamicTarget(reference: string, from: string, scope: Scope): string {
    const initial = this.target(reference, from);
    const name = this.dynamicName(reference, initial);
    const outermost = name === undefined ? undefined : scope.get(name);
    return outermost === undefined ? initial : this.resources.dynamicAnchors.get(outermost)!.get(name!)!;
  }

  /** The scope after entering the resource whose root is `resource`: its anchors count where none outer did. */
  private enter(scope: Scope, resource: string): Scope {
    const anchors = this.resources.dynamicAnchors.get(resource);
    const entered = [...this.dynamicNames].filter((name) => !scope.has(name) && anchors?.has(name));
    if (entered.length === 0) return scope;
    return new Map([...scope, ...entered.map((name) => [name, resource] as const)]);
  }

  /** The scope a node is read in where it is written: every resource around it, outermost first. */
  private writtenScope(resource: string): Scope {
    const chain = [resource];
    while (this.resources.enclosing.has(chain[0]!)) chain.unshift(this.resources.enclosing.get(chain[0]!)!);
    return chain.reduce<Scope>((scope, entered) => this.enter(scope, entered), new Map());
  }

  /** A pointer to `target` as read in `scope`: the node where it is written, or a copy bound to the scope. */
  private pointerTo(target: string, from: Scope): string {
    const resource = this.resources.places.get(target)!.resource;
    const scope = this.enter(from, resource);
    if (sameScope(scope, this.writtenScope(resource))) return fragmentOf(target);
    const key = JSON.stringify([target, [...scope].sort()]);
    let name = this.copies.get(key);
    if (name === undefined) {
      name = this.freshName();
      this.copies.set(key, name);
      this.copyNodes.set(name, true);
      this.copyNodes.set(name, this.emit(target, scope));
    }
    return fragmentOf(`/$defs/${name}`);
  }

  private freshName(): string {
    const taken = isRecord(this.root.$defs) ? this.root.$defs : {};
    let number = this.copies.size;
    while (Object.hasOwn(taken, `planloop-dynamic-scope-${number}`)) number += 1;
    return `planloop-dynamic-scope-${number}`;
  }
}

const sameScope = (a: Scope, b: Scope) => a.size === b.size && [...a].every(([name, resource]) => b.get(name) === resource);

const fragmentOf = (pointer: string) => `#${pointer.split("/").map(encodeURIComponent).join("/")}`;
