// Which URLs in model output may become a link or an image. Model output and tool results are
// hostile: a link may only lead to the web or a mail client, and an image may only be fetched
// from our own origin, so that nothing the model writes makes the browser send a request
// elsewhere (a tracking pixel, a leak of the conversation in a query string).

// Root-relative path on our origin. No whitespace, control characters or backslashes anywhere:
// browsers strip tabs and newlines and read `\` as `/`, which would turn `/\t/evil.example` or
// `/\evil.example` into a protocol-relative URL to another host.
const SAME_ORIGIN_PATH = /^\/(?![/\\])[^\s\\\p{Cc}]*$/u;
const FRAGMENT = /^#[^\s\\\p{Cc}]*$/u;
const WEB_OR_MAIL = /^(?:https?:\/\/|mailto:)[^\s\\\p{Cc}]+$/iu;

import { startLinkToken } from "../start-link";

export type LinkKind = "web" | "mail" | "same-origin" | "fragment";

// What a link's URL leads to, or null when it must not be a link (javascript:, data:, vbscript:,
// protocol-relative, anything else).
export function linkKind(url: string | null | undefined): LinkKind | null {
  if (!url) return null;
  // A start link (`/#token=…`, or our full address with it) signs the browser in as the token's
  // user: one in an answer would sign the reader in to someone else's account.
  const hash = url.indexOf("#");
  if (hash >= 0 && startLinkToken(url.slice(hash))) return null;
  if (WEB_OR_MAIL.test(url)) return /^mailto:/i.test(url) ? "mail" : "web";
  if (SAME_ORIGIN_PATH.test(url)) return "same-origin";
  if (FRAGMENT.test(url)) return "fragment";
  return null;
}

// Only images served by our own origin (an artifact's download path) load; anything absolute,
// protocol-relative, data: or blob: stays text.
export function isSameOriginImage(url: string | null | undefined): boolean {
  return typeof url === "string" && SAME_ORIGIN_PATH.test(url);
}
