import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { announcementFor, latestAnswer } from "./turn-announcements";

const answer = (status: TranscriptMessage["status"], text = ""): TranscriptMessage => ({
  id: "a1",
  order: 2,
  role: "assistant",
  status,
  content: text ? [{ type: "text", text }] : [],
});

describe("announcementFor", () => {
  it("says a new answer started and, once done, its opening words, without markdown marks", () => {
    expect(announcementFor(null, answer("streaming"))).toBe("New answer started.");
    expect(
      announcementFor(
        { id: "a1", status: "streaming" },
        answer("complete", "**Olaparib** is a PARP inhibitor."),
      ),
    ).toBe("Answer finished: Olaparib is a PARP inhibitor.");
  });

  it("stays quiet while tokens stream in (same answer, same status)", () => {
    expect(
      announcementFor({ id: "a1", status: "streaming" }, answer("streaming", "Olap")),
    ).toBeNull();
    expect(announcementFor(null, undefined)).toBeNull();
  });

  it("says how a turn ended when it did not finish", () => {
    const running = { id: "a1", status: "streaming" } as const;
    expect(announcementFor(running, answer("failed"))).toMatch(/failed/);
    expect(announcementFor(running, answer("cancelled"))).toBe("Answer stopped.");
    expect(announcementFor(running, answer("interrupted"))).toMatch(/interrupted/);
  });

  it("follows the newest answer", () => {
    const user: TranscriptMessage = { ...answer("complete"), id: "u2", role: "user" };
    expect(latestAnswer([answer("complete"), user])?.id).toBe("a1");
    expect(latestAnswer([])).toBeUndefined();
  });
});
