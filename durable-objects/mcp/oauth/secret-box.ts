// Encrypts OAuth secrets (tokens, client secrets, PKCE verifiers) for D1 with AES-GCM. Each
// ciphertext names the key that sealed it, so the key can be rotated: the new key seals, the
// old ones (OAUTH_ENCRYPTION_OLD_KEYS) still open what they sealed until it is rewritten.
import type { z } from "zod";

export interface SecretBoxEnv {
  APP_ENV: string;
  /** `<key id>:<32 random bytes, base64url>`; the key id is any short name (`k2025-06`). */
  OAUTH_ENCRYPTION_KEY?: string;
  /** Earlier keys in the same form, comma-separated: they decrypt, never encrypt. */
  OAUTH_ENCRYPTION_OLD_KEYS?: string;
}

export class EncryptionKeyError extends Error {
  readonly code = "not_configured";
}

const KEY_SPEC = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{43})$/;
const PREFIX = "v1";
// A fixed key for local development only: data sealed with it is as good as plain text.
const DEV_KEY = "dev:ZGV2ZWxvcG1lbnQtb25seS1rZXktMzItYnl0ZXMhISE";

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const unb64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

async function importKey(spec: string, where: string): Promise<{ id: string; key: CryptoKey }> {
  const m = KEY_SPEC.exec(spec.trim());
  if (!m)
    throw new EncryptionKeyError(
      `${where} must look like "<key id>:<32 random bytes in base64url>" (generate one with \`node -e "console.log('k1:'+require('crypto').randomBytes(32).toString('base64url'))"\`).`,
    );
  const key = await crypto.subtle.importKey("raw", unb64url(m[2]!), "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  return { id: m[1]!, key };
}

export interface SecretBox {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
  /** Parses JSON that was sealed, with `schema`; null when it is not what we sealed. */
  openJson<T>(sealed: string | null, schema: z.ZodType<T>): Promise<T | null>;
}

export async function secretBox(env: SecretBoxEnv): Promise<SecretBox> {
  const currentSpec =
    env.OAUTH_ENCRYPTION_KEY ?? (env.APP_ENV === "development" ? DEV_KEY : undefined);
  if (!currentSpec)
    throw new EncryptionKeyError(
      "OAUTH_ENCRYPTION_KEY is not set, so MCP sign-in cannot store tokens. Set it with `wrangler secret put OAUTH_ENCRYPTION_KEY` (see README, MCP servers).",
    );
  const current = await importKey(currentSpec, "OAUTH_ENCRYPTION_KEY");
  const keys = new Map([[current.id, current.key]]);
  for (const spec of (env.OAUTH_ENCRYPTION_OLD_KEYS ?? "").split(",").filter((s) => s.trim())) {
    const old = await importKey(spec, "OAUTH_ENCRYPTION_OLD_KEYS");
    if (!keys.has(old.id)) keys.set(old.id, old.key);
  }
  const aad = (keyId: string) => new TextEncoder().encode(`${PREFIX}.${keyId}`);

  const box: SecretBox = {
    async seal(plain) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: aad(current.id) },
        current.key,
        new TextEncoder().encode(plain),
      );
      return `${PREFIX}.${current.id}.${b64url(iv)}.${b64url(new Uint8Array(sealed))}`;
    },
    async open(sealed) {
      const [prefix, keyId, iv, data] = sealed.split(".");
      if (prefix !== PREFIX || !keyId || !iv || !data)
        throw new EncryptionKeyError("A stored MCP sign-in secret is not in a known format.");
      const key = keys.get(keyId);
      if (!key)
        throw new EncryptionKeyError(
          `A stored MCP sign-in secret was sealed with key '${keyId}', which is neither OAUTH_ENCRYPTION_KEY nor in OAUTH_ENCRYPTION_OLD_KEYS. Put that key back in OAUTH_ENCRYPTION_OLD_KEYS, or ask the user to sign in again.`,
        );
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: unb64url(iv), additionalData: aad(keyId) },
        key,
        unb64url(data),
      );
      return new TextDecoder().decode(plain);
    },
    async openJson(sealed, schema) {
      if (!sealed) return null;
      const parsed = schema.safeParse(JSON.parse(await box.open(sealed)));
      return parsed.success ? parsed.data : null;
    },
  };
  return box;
}
