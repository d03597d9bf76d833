import { createHash, randomBytes } from "node:crypto";
import { InvalidOptionsError } from "../core/errors.js";
import { updateValue, type CheckpointStore } from "../journal/checkpoint-store.js";
import { sameSecretText } from "../trust/keyed-hash.js";
import type { ApiScope } from "../client/api-types.js";

export type { ApiScope };

/** A token the run server accepts, as the store keeps it: its name, what it may do, and its hash (never the token). */
export interface ApiToken {
  name: string;
  scopes: ApiScope[];
  /** SHA-256 of the token, hex. A token is 32 random bytes: a plain hash is enough to keep it from being read back. */
  hash: string;
  createdAt: number;
}

export const apiScopes: readonly ApiScope[] = ["read", "decide", "run", "admin"];

/** Where the tokens are kept among the store's values. */
const tokensKey = "planloop:serve:tokens";

/** What each scope lets a token do besides its own: deciding and running include reading; admin includes all. */
const includes: Record<ApiScope, readonly ApiScope[]> = {
  read: ["read"],
  decide: ["decide", "read"],
  run: ["run", "read"],
  admin: apiScopes,
};

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Names a token may not have: what a run's origin and decisions call the session token and MCP over stdio. */
const reservedNames = ["session", "mcp"];

/** Whether a token of these scopes may do what `needed` names. */
export function allows(scopes: readonly ApiScope[], needed: ApiScope): boolean {
  return scopes.some((scope) => includes[scope].includes(needed));
}

export async function listTokens(store: CheckpointStore): Promise<ApiToken[]> {
  return tokensIn(await store.getValue(tokensKey));
}

function tokensIn(value: unknown): ApiToken[] {
  return Array.isArray(value) ? (value as ApiToken[]) : [];
}

/**
 * Makes a token named `name` with `scopes` and keeps its hash in the store; the token itself is
 * returned once, to be handed to whoever uses it. A name is unique: adding it again is refused.
 */
export async function addToken(
  store: CheckpointStore,
  request: { name: string; scopes: readonly string[]; at?: number },
): Promise<{ token: string; kept: ApiToken }> {
  const { name } = request;
  if (!/^[\w.@-]{1,64}$/.test(name))
    throw new InvalidOptionsError(`a token's name is 1 to 64 letters, digits, ".", "@", "-" or "_"; not ${JSON.stringify(name)}`);
  // What the server and MCP call their own callers: a token of that name would be taken for them in a run's origin and decisions.
  if (reservedNames.includes(name.toLowerCase()))
    throw new InvalidOptionsError(
      `"${name}" names the server's own callers (${reservedNames.join(", ")}: the session token, MCP over stdio); pick another name`,
    );
  const unknown = request.scopes.filter((scope) => !apiScopes.includes(scope as ApiScope));
  if (request.scopes.length === 0 || unknown.length > 0)
    throw new InvalidOptionsError(
      `a token's scopes are one or more of ${apiScopes.join(", ")}${unknown.length > 0 ? `; not ${unknown.join(", ")}` : ""}`,
    );
  const token = `plt_${randomBytes(32).toString("base64url")}`;
  const kept: ApiToken = {
    name,
    scopes: [...new Set(request.scopes as ApiScope[])],
    hash: hashToken(token),
    createdAt: request.at ?? Date.now(),
  };
  // Checked and added in one update: of two adds of one name at once, one is refused.
  await updateValue(store, tokensKey, (current) => {
    const tokens = tokensIn(current);
    if (tokens.some((each) => each.name === name))
      throw new InvalidOptionsError(`there is a token named "${name}" already; remove it first`);
    return [...tokens, kept];
  });
  return { token, kept };
}

/** Removes the token named `name`; false when there was none. */
export async function removeToken(store: CheckpointStore, name: string): Promise<boolean> {
  let removed = false;
  await updateValue(store, tokensKey, (current) => {
    const tokens = tokensIn(current);
    const kept = tokens.filter((token) => token.name !== name);
    removed = kept.length < tokens.length;
    return kept;
  });
  return removed;
}

/** The token `presented` is, among `tokens`; undefined for none (compared by hash, in constant time). */
export function findToken(tokens: readonly ApiToken[], presented: string): ApiToken | undefined {
  const hash = hashToken(presented);
  return tokens.find((token) => sameSecretText(hash, token.hash));
}
