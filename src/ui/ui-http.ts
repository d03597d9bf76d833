import { sameSecretText } from "../trust/keyed-hash.js";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";

/** The cookie the page is given once it was opened with the token. */
export const tokenCookie = "planloop_ui";

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
export function hasToken(request: IncomingMessage, url: URL, token: string): boolean {
  const given = [header(request, "x-planloop-token"), url.searchParams.get("token") ?? undefined, cookieOf(request, tokenCookie)];
  return given.some((value) => value !== undefined && sameSecretText(value, token));
}

/**
 * Refuses what a page of another site could make a browser send: a request to a server on
 * the loopback must name it as its host (no DNS rebinding; `hosts`, or undefined for a server
 * listening elsewhere, whose names are its clients'); one that changes something must come
 * with the token in its header (a cross-site form or fetch cannot set it without a preflight
 * this server never allows), as JSON, and from this origin when the browser names one.
 */
export function checkOrigin(request: IncomingMessage, hosts: readonly string[] | undefined): void {
  const host = header(request, "host")?.toLowerCase();
  if (host === undefined || (hosts !== undefined && !hosts.includes(host))) {
    throw new HttpError(421, `this server answers for ${hosts?.[0] ?? "its own address"} only`);
  }
  if (request.method === "GET" || request.method === "HEAD") return;
  if (header(request, "x-planloop-token") === undefined)
    throw new HttpError(403, "a request that changes something needs the X-Planloop-Token header");
  if (!(header(request, "content-type") ?? "").startsWith("application/json"))
    throw new HttpError(415, "send JSON (Content-Type: application/json)");
  const origin = header(request, "origin");
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`) throw new HttpError(403, "a request from another site is refused");
}

/** The JSON body of a request, at most `limit` bytes. */
export async function readJson(request: IncomingMessage, limit = 1_000_000): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, `the body is larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new HttpError(400, "the body is not JSON");
  }
}

/** Headers every answer carries: nothing is framed by another site, nothing is cached, no script from elsewhere runs. */
const safety = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'",
};

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { ...safety, "content-type": "application/json; charset=utf-8" });
  response.end(JSON.stringify(body));
}

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
};

/** A file of the built page, or false when there is none by that path (nothing outside `folder` is served). */
export async function sendStatic(
  response: ServerResponse,
  folder: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<boolean> {
  const file = normalize(join(folder, path === "/" ? "index.html" : path));
  if (!file.startsWith(folder.endsWith(sep) ? folder : folder + sep)) return false;
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return false;
  }
  response.writeHead(200, { ...safety, ...headers, "content-type": types[extname(file)] ?? "application/octet-stream" });
  response.end(body);
  return true;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (header(request, "cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}
