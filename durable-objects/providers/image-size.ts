// An image's width and height read from the first bytes of its base64 (PNG, GIF, JPEG, WebP),
// without decoding the image: a provider that refuses an image over a size fails the whole request, and
// the image stays in the history. Null when the header is not one of these or is cut short.

/** Base64 characters decoded: the others' headers fit in the first; a JPEG's size may be later. */
const HEAD_CHARS = 64;
const JPEG_CHARS = [8 * 1024, 64 * 1024];

function decode(base64: string, chars: number): Uint8Array | null {
  try {
    const text = atob(base64.slice(0, chars));
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

export function imageSize(base64: string): { width: number; height: number } | null {
  const bytes = decode(base64, HEAD_CHARS);
  if (!bytes) return null;
  const at = (i: number) => bytes[i] ?? 0;
  const le16 = (i: number) => at(i) | (at(i + 1) << 8);
  const be32 = (i: number) =>
    ((at(i) << 24) | (at(i + 1) << 16) | (at(i + 2) << 8) | at(i + 3)) >>> 0;
  if (bytes.length >= 24 && be32(0) === 0x89504e47) return { width: be32(16), height: be32(20) };
  if (bytes.length >= 10 && at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46)
    return { width: le16(6), height: le16(8) };
  if (bytes.length >= 30 && be32(0) === 0x52494646 && be32(8) === 0x57454250) {
    const chunk = String.fromCharCode(at(12), at(13), at(14), at(15));
    if (chunk === "VP8X")
      return {
        width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)),
        height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)),
      };
    if (chunk === "VP8 ") return { width: le16(26) & 0x3fff, height: le16(28) & 0x3fff };
    if (chunk === "VP8L") {
      const b = (at(22) << 8) | at(21);
      return {
        width: 1 + (b & 0x3fff),
        height: 1 + (((at(24) & 0xf) << 10) | (at(23) << 2) | ((at(22) >> 6) & 3)),
      };
    }
    return null;
  }
  if (at(0) !== 0xff || at(1) !== 0xd8) return null;
  // Most JPEGs say their size in the first few kilobytes; a large EXIF block pushes it further.
  for (const chars of JPEG_CHARS) {
    const head = decode(base64, chars);
    const size = head && jpegSize(head);
    if (size) return size;
  }
  return null;
}

/** A JPEG's size is in its first start-of-frame segment, after whatever segments come first. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  const be16 = (i: number) => ((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0);
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { width: be16(i + 7), height: be16(i + 5) };
    i += 2 + be16(i + 2);
  }
  return null;
}
