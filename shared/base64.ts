// Base64 for files of megabytes (attachments, images and blobs from MCP tools), with the
// runtime's own codec: a binary string built a character at a time, for `btoa` or read back
// from `atob`, took 50–100 ms per MiB.
import { Buffer } from "node:buffer";

/** The standard base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/**
 * The bytes `text` encodes; throws, as `atob` does, on what is not base64 (and forgives, as it
 * does, whitespace and missing padding).
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  // A copy: a small Buffer may be a view into a pool shared with others.
  return new Uint8Array(Buffer.from(atob(text), "latin1"));
}
