// Short-lived links to one attachment's bytes, for MCP tools that need the file: an HMAC over
// the artifact id and the expiry, so the link carries no credential of the user and opens that
// one file only, for a few minutes.
import type { Env } from "./env";

/** How long a link works. */
export const ATTACHMENT_LINK_TTL_SECONDS = 10 * 60;

const enc = new TextEncoder();

/** The key: SIGNING_SECRET, else GRAPH_CONTEXT_SECRET (generated locally); null without either. */
export function attachmentLinkSecret(
  env: Pick<Env, "SIGNING_SECRET" | "GRAPH_CONTEXT_SECRET">,
): string | null {
  return env.SIGNING_SECRET || env.GRAPH_CONTEXT_SECRET || null;
}

const key = (secret: string) =>
  crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);

// The purpose is signed too, so no other token made with the same key can pass for a link.
const message = (artifactId: string, expiresAt: number) =>
  enc.encode(`attachment-link\n${artifactId}\n${expiresAt}`);

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

export async function attachmentLinkPath(
  secret: string,
  artifactId: string,
  expiresAt: number,
): Promise<string> {
  const sig = hex(
    await crypto.subtle.sign("HMAC", await key(secret), message(artifactId, expiresAt)),
  );
  return `/api/attachment-links/${encodeURIComponent(artifactId)}?exp=${expiresAt}&sig=${sig}`;
}

export async function attachmentLinkValid(
  secret: string,
  artifactId: string,
  expiresAt: number,
  sig: string,
  now = Date.now(),
): Promise<boolean> {
  if (!Number.isFinite(expiresAt) || expiresAt <= now) return false;
  if (!/^[0-9a-f]{64}$/.test(sig)) return false;
  const bytes = Uint8Array.from(sig.match(/../g)!, (h) => parseInt(h, 16));
  // crypto.subtle.verify compares in constant time.
  return crypto.subtle.verify("HMAC", await key(secret), bytes, message(artifactId, expiresAt));
}
