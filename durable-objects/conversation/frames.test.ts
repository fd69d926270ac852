import { describe, expect, it } from "vitest";
import { MAX_CLIENT_FRAME_BYTES } from "../protocol/wire";
import { parseClientFrame } from "./frames";

describe("parseClientFrame", () => {
  it("names every frame type the socket accepts when a frame is invalid", () => {
    const result = parseClientFrame(JSON.stringify({ type: "resume", lastSeq: -1 }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_frame");
    const hint = result.error.message.split("Expected one of ")[1] ?? "";
    for (const type of [
      "resume",
      "send",
      "cancel",
      "ping",
      "approval",
      "elicitation",
      "branch",
      "typing",
    ]) {
      expect(hint).toContain(type);
    }
  });

  it("accepts every frame type named in that message", () => {
    const typing = parseClientFrame(JSON.stringify({ type: "typing", typing: true }));
    expect(typing).toEqual({ ok: true, frame: { type: "typing", typing: true } });
  });

  it("measures the limit in bytes: fewer characters than the limit can still be too many bytes", () => {
    const send = (text: string) => JSON.stringify({ type: "send", clientMessageId: "m", text });
    // 21,900 "€" are 65,700 bytes of UTF-8 (3 each): over the limit in bytes, a third of it in
    // characters.
    const euros = "€".repeat(21_900);
    expect(new TextEncoder().encode(send(euros)).length).toBeGreaterThan(MAX_CLIENT_FRAME_BYTES);
    expect(send(euros).length).toBeLessThan(MAX_CLIENT_FRAME_BYTES / 2);
    const tooMany = parseClientFrame(send(euros));
    expect(tooMany.ok).toBe(false);
    if (!tooMany.ok) expect(tooMany.error.code).toBe("frame_too_large");
    // The same number of ASCII characters is far under it.
    expect(parseClientFrame(send("e".repeat(21_900))).ok).toBe(true);
  });
});
