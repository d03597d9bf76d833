import type { Context } from "hono";

/**
 * Whether a request's `Origin` may reach the API and `/mcp`: a request without one (a program, a
 * command line: not a browser) may; a browser's may when it names this server itself (its host
 * as the request names it: the page on the same origin) or one of `allowed` (scheme, host and
 * port, as browsers send it: `https://app.example.com`). Anything else — another site's page,
 * `null` from a sandboxed frame or a file — is refused, so a page a person happens to open cannot
 * drive a server on their machine (MCP's transport asks every server to check).
 */
export function originAllowed(context: Context, allowed: readonly string[]): boolean {
  const origin = context.req.header("origin");
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const named = new URL(origin);
    return (named.protocol === "http:" || named.protocol === "https:") && named.host === context.req.header("host");
  } catch {
    return false;
  }
}

/** Checks each origin of an allow-list as browsers send one: `scheme://host[:port]`, nothing after. */
export function checkedOrigins(given: readonly string[] | undefined): string[] {
  return (given ?? []).map((origin) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin)
      throw new TypeError(`an allowed origin is scheme://host[:port] with nothing after, as a browser sends it; not "${origin}"`);
    return origin;
  });
}

/**
 * The methods an app's `routes` answer on `path` (its routes, not its middleware): for a 405 with `Allow`
 * where a path is the API's but the method is not.
 */
export function allowedMethods(routes: ReadonlyArray<{ method: string; path: string }>, path: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === "ALL" || route.path.includes("*")) continue;
    const pattern = new RegExp(`^${route.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]+/g, "[^/]+")}$`);
    if (pattern.test(path)) methods.add(route.method);
  }
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}
