// What a screen reader hears as answers come and go: that an answer started, and once it ends,
// how it ended with its opening words. Never each streamed token (the message itself is not a
// live region).
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";

const EXCERPT_CHARS = 160;

type Latest = Pick<TranscriptMessage, "id" | "status" | "content"> | undefined;
/** What the announcer last saw of the newest answer (null: there was no answer yet). */
export type Seen = { id: string; status: TranscriptMessage["status"] } | null;

/** The sentence to announce when the newest answer went from `before` to `now`, or null. */
export function announcementFor(before: Seen, now: Latest): string | null {
  if (!now || (before?.id === now.id && before.status === now.status)) return null;
  switch (now.status) {
    case "streaming":
      return "New answer started.";
    case "complete": {
      const text = excerpt(now);
      return text ? `Answer finished: ${text}` : "Answer finished.";
    }
    case "failed":
      return "The answer failed; the reason is shown under it.";
    case "cancelled":
      return "Answer stopped.";
    case "interrupted":
      return "The answer was interrupted.";
  }
}

function excerpt(message: NonNullable<Latest>): string {
  const text = message.content
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join(" ")
    .replace(/[#*_`>[\]]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

/** The newest answer of a transcript, which the announcements follow. */
export function latestAnswer(messages: readonly TranscriptMessage[] | undefined): Latest {
  return messages?.findLast((m) => m.role === "assistant");
}
