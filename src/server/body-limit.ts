import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/**
 * Hono's `bodyLimit`, without making the request a full WHATWG `Request` when its headers
 * decide: a body with a `Content-Length` (and no `Transfer-Encoding`) is judged by that header,
 * as `bodyLimit` judges it, and a GET or HEAD has none. Asking for `c.req.raw.body`, as
 * `bodyLimit` does first, makes @hono/node-server build an undici `Request` for every request:
 * about 0.2 ms of CPU a start (bench/serve-cost.bench.ts), a third of a bare handler's whole
 * request. A chunked body is counted by `bodyLimit` itself. (Node's parser reads no more of a
 * body than its `Content-Length` says.)
 */
export function headerBodyLimit(options: {
  maxSize: number;
  onError: (context: Context) => Response | Promise<Response>;
}): MiddlewareHandler {
  const counted = bodyLimit(options);
  return async (context, next) => {
    const method = context.req.method;
    if (method === "GET" || method === "HEAD") return next();
    const length = context.req.header("content-length");
    if (length !== undefined && context.req.header("transfer-encoding") === undefined)
      return Number.parseInt(length, 10) > options.maxSize ? options.onError(context) : next();
    return counted(context, next);
  };
}
