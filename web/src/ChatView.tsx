import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import type { TranscriptMessage } from "../../durable-objects/protocol/transcript";
import { LiveConversation, type LiveState } from "./live-conversation";

export function ChatView({ conversationId }: { conversationId: string }) {
  const [state, setState] = useState<LiveState | null>(null);
  const [draft, setDraft] = useState("");
  const live = useRef<LiveConversation | null>(null);
  const bottom = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const conversation = new LiveConversation(conversationId, setState);
    live.current = conversation;
    return () => conversation.close();
  }, [conversationId]);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [state?.transcript.lastSeq]);

  const send = () => {
    const text = draft.trim();
    if (!text) return;
    live.current?.send(text);
    setDraft("");
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  return (
    <section className="chat" aria-label="Conversation">
      {state?.connection === "offline" && (
        <div role="status" className="banner warning">
          Offline — reconnecting; nothing you saw is lost.
        </div>
      )}
      <div className="messages" data-testid="messages">
        {state?.transcript.messages.map((m) => (
          <MessageView key={m.id} message={m} />
        ))}
        <div ref={bottom} />
      </div>
      {state?.error && (
        <p role="alert" className="error">
          {state.error}
        </p>
      )}
      <div className="composer">
        <textarea
          aria-label="Message"
          placeholder="Ask something… (Enter sends, Shift+Enter for a new line)"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKey}
          rows={3}
        />
        {state?.transcript.busy ? (
          <button type="button" onClick={() => live.current?.cancel()}>
            Cancel
          </button>
        ) : (
          <button type="button" className="primary" onClick={send} disabled={!draft.trim()}>
            Send
          </button>
        )}
      </div>
    </section>
  );
}

function MessageView({ message }: { message: TranscriptMessage }) {
  return (
    <article
      className={`message ${message.role}`}
      data-status={message.status}
      data-testid={`message-${message.role}`}
    >
      {message.content.map((part, i) => {
        switch (part.type) {
          case "text":
            // Plain text only: model output never becomes markup here.
            return (
              <p key={i} className="text">
                {part.text}
              </p>
            );
          case "reasoning":
            return (
              <details key={i} className="reasoning">
                <summary>Reasoning</summary>
                <p className="text">{part.text}</p>
              </details>
            );
          case "tool_call":
            return (
              <p key={i} className="tool muted small">
                {part.status === "started" ? "⏳" : part.status === "done" ? "✓" : "✗"}{" "}
                {part.server} · {part.tool} {part.summary ? `— ${part.summary}` : ""}
              </p>
            );
          case "artifact":
            return (
              <a
                key={i}
                className="artifact-button"
                href={`/api/artifacts/${part.artifactId}/download`}
                target="_blank"
                rel="noopener noreferrer"
              >
                {part.title}
              </a>
            );
        }
      })}
      {message.status === "streaming" && (
        <span className="muted small" aria-live="polite">
          …
        </span>
      )}
      {message.status !== "complete" && message.status !== "streaming" && (
        <span className="muted small">({message.status})</span>
      )}
    </article>
  );
}
