// The scoped, short-lived context the Conversation DO gives graph-tool calls (the reference's
// `databaseContext`): an HMAC-SHA256 token naming one conversation, verified by this server.
const enc = new TextEncoder();

export interface ContextClaims {
  conversationId: string;
  userId: string;
  exp: number;
}

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
function fromB64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    return Uint8Array.from(
      atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)),
      (c) => c.charCodeAt(0),
    );
  } catch {
    return null;
  }
}

const key = (secret: string) =>
  crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);

export async function signContextToken(
  secret: string,
  claims: { conversationId: string; userId: string; ttlSeconds?: number },
  now = Date.now(),
): Promise<string> {
  if (!secret)
    throw new Error("GRAPH_CONTEXT_SECRET is not set; graph tools need it on both workers.");
  const payload: ContextClaims = {
    conversationId: claims.conversationId,
    userId: claims.userId,
    exp: Math.floor(now / 1000) + (claims.ttlSeconds ?? 900),
  };
  const body = b64url(enc.encode(JSON.stringify(payload)));
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", await key(secret), enc.encode(body)));
  return `${body}.${b64url(sig)}`;
}

export type VerifyResult = { ok: true; claims: ContextClaims } | { ok: false; reason: string };

export async function verifyContextToken(
  secret: string,
  token: string,
  now = Date.now(),
): Promise<VerifyResult> {
  if (!secret) return { ok: false, reason: "the server has no GRAPH_CONTEXT_SECRET configured" };
  const [body, sig, extra] = token.split(".");
  const sigBytes = sig ? fromB64url(sig) : null;
  const bodyBytes = body ? fromB64url(body) : null;
  if (!body || !sigBytes || !bodyBytes || extra !== undefined)
    return { ok: false, reason: "malformed context token" };
  // crypto.subtle.verify compares in constant time.
  if (!(await crypto.subtle.verify("HMAC", await key(secret), sigBytes, enc.encode(body))))
    return { ok: false, reason: "invalid context token signature" };
  let claims: ContextClaims;
  try {
    claims = JSON.parse(new TextDecoder().decode(bodyBytes)) as ContextClaims;
  } catch {
    return { ok: false, reason: "malformed context token" };
  }
  if (typeof claims.exp !== "number" || claims.exp * 1000 <= now)
    return { ok: false, reason: "the context token has expired" };
  if (typeof claims.conversationId !== "string" || typeof claims.userId !== "string")
    return { ok: false, reason: "malformed context token" };
  return { ok: true, claims };
}
