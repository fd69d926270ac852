// Small Web Crypto helpers: hashing tokens, random ids, HMAC-signed claims.
const enc = new TextEncoder();

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", enc.encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function randomToken(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  try {
    return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    enc.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

/** `payload.signature`, both base64url; the payload is JSON claims with an `exp` (ms). */
export async function signClaims(secret: string, claims: Record<string, unknown>): Promise<string> {
  const payload = toBase64Url(enc.encode(JSON.stringify(claims)));
  const sig = await crypto.subtle.sign("HMAC", await hmacKey(secret), enc.encode(payload));
  return `${payload}.${toBase64Url(new Uint8Array(sig))}`;
}

/** The claims if the signature holds and `exp` is in the future; otherwise null. */
export async function verifyClaims(
  secret: string,
  token: string,
  now = Date.now(),
): Promise<Record<string, unknown> | null> {
  const [payload, sig, extra] = token.split(".");
  if (!payload || !sig || extra !== undefined) return null;
  const sigBytes = fromBase64Url(sig);
  const payloadBytes = fromBase64Url(payload);
  if (!sigBytes || !payloadBytes) return null;
  // crypto.subtle.verify compares in constant time.
  const ok = await crypto.subtle.verify(
    "HMAC",
    await hmacKey(secret),
    sigBytes,
    enc.encode(payload),
  );
  if (!ok) return null;
  try {
    const claims = JSON.parse(new TextDecoder().decode(payloadBytes)) as Record<string, unknown>;
    return typeof claims.exp === "number" && claims.exp > now ? claims : null;
  } catch {
    return null;
  }
}
