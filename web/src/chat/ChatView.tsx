// The open conversation: its messages as they stream, the composer, and the connection's state.
import { useEffect, useRef, useState } from "react";
import { Composer } from "../composer/Composer";
import { LiveConversation, type LiveState } from "./live-conversation";
import { MessageView } from "./MessageView";
import { SignedOutBanner } from "./SignedOutBanner";
import { sumUsage, usagePerAnswer } from "../usage/merge-usage";
import { UsageMeter } from "../usage/UsageMeter";
import { useConversationUsage } from "../usage/use-conversation-usage";
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
  // Resources attached from the composer become artifacts before any answer names them.
  const [attachedArtifacts, setAttachedArtifacts] = useState(0);
  const shownArtifacts = artifactCount + attachedArtifacts;
  useEffect(() => onArtifactCount?.(shownArtifacts), [shownArtifacts, onArtifactCount]);

  const send = (text: string) => {
    live.current?.send(text);
    pinnedToBottom.current = true;
  };
  const transcript = state?.transcript;
  const storedUsage = useConversationUsage(conversationId, !!transcript?.busy);
  const usage = usagePerAnswer(
    storedUsage,
    new Map(
      (transcript?.messages ?? []).flatMap((m) =>
        m.activity?.usage ? [[m.id, m.activity.usage] as const] : [],
      ),
    ),
  );
  const conversationUsage = sumUsage(usage.values());

  return (
    <section className="chat" aria-label="Conversation">
      {state?.connection === "offline" && (
        <div role="status" className="banner warning" data-testid="offline">
          Offline — reconnecting by itself; nothing you saw is lost.
        </div>
      )}
      {state?.connection === "signed-out" && <SignedOutBanner />}
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
            usage={usage.get(m.id)}
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
      {conversationUsage.calls > 0 && (
        <div className="conversation-usage">
          <UsageMeter usage={conversationUsage} label="This conversation" />
          <a
            className="small"
            href={`/api/conversations/${conversationId}/audit`}
            download
            data-testid="audit-download"
          >
            Download audit log (JSON Lines)
          </a>
        </div>
      )}
      {props.pinned && props.pinned.length > 0 && (
        <p className="muted small pinned-note" data-testid="pinned-note">
          📌 Sent with your next message: {props.pinned.join(", ")}
        </p>
      )}
      <Composer
        conversationId={conversationId}
        busy={!!transcript?.busy}
        onSend={send}
        onCancel={() => live.current?.cancel()}
        onArtifactsAttached={(n) => setAttachedArtifacts((count) => count + n)}
      />
    </section>
  );
}
