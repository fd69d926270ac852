// What bytes really are, and which declared media types we repeat in a header. Uploads, MCP
// tool results and the download route use these: a declared type is a claim by someone we do
// not trust, and only the bytes say what an image is.

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

// The raster formats every provider reads, by their magic numbers.
const RASTER_IMAGES: ReadonlyArray<{ type: string; matches: (b: Uint8Array) => boolean }> = [
  {
    type: "image/png",
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { type: "image/jpeg", matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  {
    type: "image/gif",
    matches: (b) => startsWith(b, ascii("GIF87a")) || startsWith(b, ascii("GIF89a")),
  },
  {
    type: "image/webp",
    matches: (b) => startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8),
  },
];

/** image/png, image/jpeg, image/gif or image/webp when the bytes are one; otherwise null. */
export function rasterImageType(bytes: Uint8Array): string | null {
  return RASTER_IMAGES.find((i) => i.matches(bytes))?.type ?? null;
}

// RFC 9110 `type/subtype` tokens, with optional parameters; nothing a header cannot carry.
const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
const MEDIA_TYPE = new RegExp(
  `^${TOKEN}/${TOKEN}(?:\\s*;\\s*${TOKEN}=(?:${TOKEN}|"[^"\\\\\\p{Cc}]*"))*$`,
  "u",
);

/** `declared`, trimmed and lower-cased, when it is a well-formed media type; else the fallback. */
export function mediaTypeOr(declared: string | null | undefined, fallback: string): string {
  const type = (declared ?? "").trim();
  return type.length <= 200 && MEDIA_TYPE.test(type) ? type.toLowerCase() : fallback;
}
