/**
 * Checks a webhook the run server sent (docs/server.md#webhooks): its `Planloop-Signature`
 * header (`t=<ms since 1970>,v1=<hex HMAC-SHA256 of "<t>.<body>">`) was made with `secret`
 * over this very body, no longer than `toleranceMs` ago (default 5 minutes), so a request
 * caught and sent again later is refused. Uses WebCrypto: Node 20+, browsers, edge runtimes.
 *
 * @example
 * const ok = await verifyWebhook({ body: await request.text(), header: request.headers.get("planloop-signature"), secret });
 * if (!ok) return new Response("forged or stale", { status: 401 });
 */
export async function verifyWebhook(input: {
  /** The request's body as received: the exact text, before any JSON parsing. */
  body: string;
  header: string | null | undefined;
  secret: string;
  toleranceMs?: number;
  now?: number;
}): Promise<boolean> {
  const parts = new Map((input.header ?? "").split(",").map((part) => part.trim().split("=", 2) as [string, string]));
  const time = Number(parts.get("t"));
  const given = parts.get("v1");
  if (!Number.isSafeInteger(time) || given === undefined || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs((input.now ?? Date.now()) - time) > (input.toleranceMs ?? 300_000)) return false;
  const expected = await webhookSignature(input.secret, time, input.body);
  let differs = 0;
  for (let index = 0; index < expected.length; index += 1) differs |= expected.charCodeAt(index) ^ given.charCodeAt(index);
  return differs === 0;
}

/** The hex HMAC-SHA256 of `<time>.<body>` with `secret`: what `v1` of the signature header holds. */
export async function webhookSignature(secret: string, time: number, body: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${time}.${body}`)));
  return [...signature].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
