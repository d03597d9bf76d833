import type { Context } from "hono";

/**
 * Whether a request's `Origin` may reach the API and `/mcp`: a request without one (a program, a
 * command line: not a browser) may; a browser's may when it names this server itself (its host
 * as the request names it: the page on the same origin) or one of `allowed` (scheme, host and
 * port, as browsers send it: `https://app.example.com`). Anything else — another site's page,
 * `null` from a sandboxed frame or a file — is refused, so a page a person happens to open cannot
 * drive a server on their machine (MCP's transport asks every server to check). `loopbackOnly`
 * (a server that listens on the loopback): its own origin is one under a loopback name only.
 */
export function originAllowed(context: Context, allowed: readonly string[], options: { loopbackOnly?: boolean | undefined } = {}): boolean {
  const origin = context.req.header("origin");
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const named = new URL(origin);
    if (named.protocol !== "http:" && named.protocol !== "https:") return false;
    // A server on the loopback is reached under a loopback name; a page whose own name resolved
    // to 127.0.0.1 (DNS rebinding) sends its name as Host and Origin alike, and is not this server.
    if (options.loopbackOnly && !loopbackNames.test(named.hostname)) return false;
    return named.host === context.req.header("host");
  } catch {
    return false;
  }
}

/** The names a loopback server is reached under: localhost (and its subdomains), 127.x.x.x, [::1]. */
const loopbackNames = /^(localhost|[^.]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

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
