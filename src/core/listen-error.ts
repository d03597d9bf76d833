import { InvalidOptionsError } from "./errors.js";

/**
 * Why a server could not listen, in words a person acts on: a port in use, a port that needs
 * privileges, an address this machine does not have. Any other error is returned as it is.
 */
export function listenError(error: unknown, where: { host: string; port: number | undefined }): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const port = where.port ?? 0;
  const at = `${where.host}:${port}`;
  if (code === "EADDRINUSE")
    return new InvalidOptionsError(
      `port ${port} on ${where.host} is in use (another planloop serve or ui, or another program): choose another with --port, or --port 0 for a free one`,
    );
  if (code === "EACCES")
    return new InvalidOptionsError(
      `listening on ${at} is not allowed for this user: ports below 1024 need privileges; use --port 1024 or above`,
    );
  if (code === "EADDRNOTAVAIL")
    return new InvalidOptionsError(
      `this machine has no address ${where.host}: use --host 127.0.0.1 (this machine only) or an address it has`,
    );
  return error;
}
