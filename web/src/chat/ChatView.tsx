// The open conversation: its messages as they stream, the composer, and the connection's state.
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { MAX_MESSAGE_CHARS } from "../../../durable-objects/protocol/wire";
import { LiveConversation, type LiveState } from "./live-conversation";
import { MessageView } from "./MessageView";
import "./chat.css";

export function ChatView(props: {
  conversationId: string;
  onOpenArtifact: (id: string) => void;
  /** Called with the number of artifacts the answers have made so far, when it changes. */
  onArtifactCount?: (count: number) => void;
  /** Titles of the pinned artifacts, which go with the next message. */
  pinned?: readonly string[];
}) {
  const { conversationId, onArtifactCount } = props;
  const [state, setState] = useState<LiveState | null>(null);
  const [draft, setDraft] = useState("");
  const live = useRef<LiveConversation | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const pinnedToBottom = useRef(true);

  useEffect(() => {
    const conversation = new LiveConversation(conversationId, setState);
    live.current = conversation;
    return () => conversation.close();
  }, [conversationId]);

  // Follow the stream only while the reader is at the bottom; scrolling up to read stays put.
  useEffect(() => {
    const el = list.current;
    if (el && pinnedToBottom.current) el.scrollTop = el.scrollHeight;
  }, [state?.transcript.lastSeq]);

  const artifactCount =
    state?.transcript.messages.reduce(
      (n, m) => n + m.content.filter((p) => p.type === "artifact").length,
      0,
    ) ?? 0;
  useEffect(() => onArtifactCount?.(artifactCount), [artifactCount, onArtifactCount]);

  const send = () => {
    const text = draft.trim();
    if (!text || text.length > MAX_MESSAGE_CHARS) return;
    live.current?.send(text);
    setDraft("");
    pinnedToBottom.current = true;
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  const tooLong = draft.length > MAX_MESSAGE_CHARS;
  const transcript = state?.transcript;

  return (
    <section className="chat" aria-label="Conversation">
      {state?.connection === "offline" && (
        <div role="status" className="banner warning" data-testid="offline">
          Offline — reconnecting by itself; nothing you saw is lost.
        </div>
      )}
      {transcript?.notices.map((n) => (
        <div key={n.seq} role="status" className={`banner ${n.level}`}>
          {n.text}
        </div>
      ))}
      <div
        className="messages"
        data-testid="messages"
        ref={list}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinnedToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {state?.connection === "connecting" && !transcript?.messages.length && (
          <p className="centered muted">Connecting…</p>
        )}
        {state?.connection !== "connecting" && transcript?.messages.length === 0 && (
          <p className="centered muted">Ask a question to start.</p>
        )}
        {transcript?.messages.map((m) => (
          <MessageView
            key={m.id}
            message={m}
            onOpenArtifact={props.onOpenArtifact}
            onAnswerApproval={(id, answer) => live.current?.answerApproval(id, answer)}
            onAnswerElicitation={(id, answer) => live.current?.answerElicitation(id, answer)}
          />
        ))}
      </div>
      {state?.error && (
        <p role="alert" className="error composer-error">
          {state.error}
        </p>
      )}
      {props.pinned && props.pinned.length > 0 && (
        <p className="muted small pinned-note" data-testid="pinned-note">
          📌 Sent with your next message: {props.pinned.join(", ")}
        </p>
      )}
      <div className="composer">
        <textarea
          aria-label="Message"
          aria-describedby="composer-hint"
          placeholder="Ask something…"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKey}
          rows={3}
        />
        <div className="composer-actions">
          {transcript?.busy && (
            <button type="button" onClick={() => live.current?.cancel()}>
              Cancel
            </button>
          )}
          <button
            type="button"
            className="primary"
            onClick={send}
            disabled={!draft.trim() || tooLong}
          >
            Send
          </button>
        </div>
      </div>
      <p id="composer-hint" className={`muted small composer-hint ${tooLong ? "error" : ""}`}>
        {tooLong
          ? `Too long: ${draft.length} of ${MAX_MESSAGE_CHARS} characters. Shorten it or split it into several messages.`
          : "Enter sends, Shift+Enter starts a new line. A question asked while an answer is running waits its turn."}
      </p>
    </section>
  );
}
