import { describe, expect, it } from "vitest";
import { fromBase64, toBase64 } from "./base64";

/** Every byte value, then enough more to pass any slice size a hand-made codec might use. */
const bytes = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 7919) % 256);

describe("base64", () => {
  it("encodes as btoa does and decodes back to the same bytes", () => {
    const text = toBase64(bytes);
    expect(text).toBe(btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join("")));
    expect(fromBase64(text)).toEqual(bytes);
  });

  it("encodes a view of a larger buffer, not the whole buffer", () => {
    expect(toBase64(bytes.subarray(3, 6))).toBe(btoa(String.fromCharCode(...bytes.slice(3, 6))));
  });

  it("forgives whitespace and missing padding, and refuses what is not base64", () => {
    expect(fromBase64("aGk\n=")).toEqual(new TextEncoder().encode("hi"));
    expect(fromBase64("aGk")).toEqual(new TextEncoder().encode("hi"));
    expect(() => fromBase64("not base64!")).toThrow();
  });

  it("gives bytes of their own, not a view into a shared pool", () => {
    const small = fromBase64("aGk=");
    expect(small.byteOffset).toBe(0);
    expect(small.buffer.byteLength).toBe(2);
  });
});
