import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { sameSecretText } from "../trust/keyed-hash.js";

/** The cookie the page is given once it was opened with the token: named for the server's port, so another local server never gets it. */
export function tokenCookie(port: number): string {
  return `planloop_ui_${port}`;
}

/** What a request failed with: its HTTP status and a message for the page. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * Whether the request carries the token: in the `X-Planloop-Token` header (scripts), the
 * `token` query parameter (the printed URL, and the page's event stream), or the cookie the
 * page was given (its scripts and styles).
 */
export function hasToken(context: Context, token: string, cookie: string): boolean {
  const given = [context.req.header("x-planloop-token"), context.req.query("token"), getCookie(context, cookie)];
  return given.some((value) => value !== undefined && sameSecretText(value, token));
}

/**
 * Refuses what a page of another site could make a browser send: a request to a server on
 * the loopback must name it as its host (no DNS rebinding; `hosts`, or undefined for a server
 * listening elsewhere, whose names are its clients'); one that changes something must come
 * with the token in its header (a cross-site form or fetch cannot set it without a preflight
 * this server never allows), as JSON, and from this origin when the browser names one.
 */
export function checkOrigin(context: Context, hosts: readonly string[] | undefined): void {
  const host = context.req.header("host")?.toLowerCase();
  if (host === undefined || (hosts !== undefined && !hosts.includes(host))) {
    throw new HttpError(421, `this server answers for ${hosts?.[0] ?? "its own address"} only`);
  }
  const method = context.req.method;
  if (method === "GET" || method === "HEAD") return;
  if (context.req.header("x-planloop-token") === undefined)
    throw new HttpError(403, "a request that changes something needs the X-Planloop-Token header");
  if (!(context.req.header("content-type") ?? "").startsWith("application/json"))
    throw new HttpError(415, "send JSON (Content-Type: application/json)");
  const origin = context.req.header("origin");
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) throw new HttpError(403, "a request from another site is refused");
}

/** The JSON body of a request (its size is held by the app's body limit). */
export async function readJson(context: Context): Promise<unknown> {
  try {
    return JSON.parse(await context.req.text()) as unknown;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, "the body is not JSON");
  }
}

/** Headers every answer carries: nothing is framed by another site, nothing is cached, no script from elsewhere runs. */
export const safety: Record<string, string> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'",
};

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

/** A file of the built page, or undefined when there is none by that path (nothing outside `folder` is served). */
export async function staticFile(folder: string, path: string): Promise<{ body: Buffer; type: string } | undefined> {
  const file = normalize(join(folder, path === "/" || path === "" ? "index.html" : path));
  if (!file.startsWith(folder.endsWith(sep) ? folder : folder + sep)) return undefined;
  try {
    return { body: await readFile(file), type: types[extname(file)] ?? "application/octet-stream" };
  } catch {
    return undefined;
  }
}
