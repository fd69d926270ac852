// A visually hidden live region that says when an answer starts and ends (turn-announcements.ts).
import { useEffect, useRef, useState } from "react";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { announcementFor, latestAnswer, type Seen } from "./turn-announcements";

export function TurnAnnouncer(props: {
  messages: readonly TranscriptMessage[] | undefined;
  /** Caught up with the server: before that, replayed history would be announced as new. */
  ready: boolean;
}) {
  const latest = latestAnswer(props.messages);
  const seen = useRef<Seen | undefined>(undefined);
  const [said, setSaid] = useState("");

  useEffect(() => {
    if (!props.ready) return;
    const before = seen.current;
    seen.current = latest ? { id: latest.id, status: latest.status } : null;
    // The first time caught up is the baseline: what was already there is not news.
    if (before === undefined) return;
    const sentence = announcementFor(before, latest);
    if (sentence) setSaid(sentence);
    // Only the newest answer's id and status matter: a streamed token changes neither.
  }, [latest?.id, latest?.status, props.ready]);

  return (
    <p role="status" aria-live="polite" className="visually-hidden" data-testid="announcer">
      {said}
    </p>
  );
}
