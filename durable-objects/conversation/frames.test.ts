import { describe, expect, it } from "vitest";
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
});
