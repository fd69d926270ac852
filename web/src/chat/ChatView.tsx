// The open conversation: its messages as they stream, the composer, and the connection's state.
import { useCallback, useEffect, useRef, useState } from "react";
import type { ElicitationAnswer } from "../../../durable-objects/protocol/elicitation";
import type { ProviderInfo } from "../../../durable-objects/protocol/rest";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import type { ApprovalAnswer } from "../../../durable-objects/protocol/wire";
import { Composer } from "../composer/Composer";
import { LiveConversation, type LiveState } from "./live-conversation";
import { MessageView } from "./MessageView";
import { SignedOutBanner } from "./SignedOutBanner";
import { sumUsage, usagePerAnswer } from "../usage/merge-usage";
import { UsageMeter } from "../usage/UsageMeter";
import { useConversationUsage } from "../usage/use-conversation-usage";
import { VirtualList, type VirtualListHandle } from "./VirtualList";
import { TurnAnnouncer } from "./TurnAnnouncer";
import { branchConversation, useAlternatives } from "./branch-api";
import type { BranchAction } from "./MessageActions";
import "./chat.css";

export function ChatView(props: {
  conversationId: string;
  onOpenArtifact: (id: string) => void;
  /** Called with the number of artifacts the answers have made so far, when it changes. */
  onArtifactCount?: (count: number) => void;
  /** Titles of the pinned artifacts, which go with the next message. */
  pinned?: readonly string[];
  /** Called when the model names the conversation (live, in every open tab). */
  onTitle?: (title: string) => void;
  /** Opens another conversation: a branch just made, or another version of a message. */
  onOpenConversation?: (conversationId: string) => void;
  /** The providers an answer can be regenerated with. */
  providers?: readonly ProviderInfo[];
}) {
  const { conversationId, onArtifactCount, onTitle } = props;
  const [state, setState] = useState<LiveState | null>(null);
  const live = useRef<LiveConversation | null>(null);
  const list = useRef<VirtualListHandle>(null);

  useEffect(() => {
    const conversation = new LiveConversation(conversationId, setState);
    live.current = conversation;
    return () => conversation.close();
  }, [conversationId]);

  const artifactCount =
    state?.transcript.messages.reduce(
      (n, m) => n + m.content.filter((p) => p.type === "artifact").length,
      0,
    ) ?? 0;
  // Resources attached from the composer become artifacts before any answer names them.
  const [attachedArtifacts, setAttachedArtifacts] = useState(0);
  const shownArtifacts = artifactCount + attachedArtifacts;
  useEffect(() => onArtifactCount?.(shownArtifacts), [shownArtifacts, onArtifactCount]);
  const title = state?.transcript.title;
  useEffect(() => {
    if (title) onTitle?.(title);
  }, [title, onTitle]);

  const send = (text: string) => {
    live.current?.send(text);
    list.current?.scrollToEnd();
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
  // Stable callbacks, so a streamed delta re-renders only the message it changed.
  const { onOpenArtifact } = props;
  const answerApproval = useCallback(
    (id: string, answer: ApprovalAnswer) => live.current?.answerApproval(id, answer),
    [],
  );
  const answerElicitation = useCallback(
    (id: string, answer: ElicitationAnswer) => live.current?.answerElicitation(id, answer),
    [],
  );
  const versions = useAlternatives(conversationId, !!transcript?.busy);
  const { onOpenConversation, providers } = props;
  const branch = useCallback(
    async (action: BranchAction) => {
      const made = await branchConversation(conversationId, action);
      onOpenConversation?.(made.id);
    },
    [conversationId, onOpenConversation],
  );
  const renderMessage = useCallback(
    (m: TranscriptMessage) => (
      <MessageView
        message={m}
        usage={usage.get(m.id)}
        onOpenArtifact={onOpenArtifact}
        onAnswerApproval={answerApproval}
        onAnswerElicitation={answerElicitation}
        versions={versions.get(m.order)}
        providers={providers}
        {...(onOpenConversation && { onOpenConversation, onBranch: branch })}
      />
    ),
    [
      usage,
      onOpenArtifact,
      answerApproval,
      answerElicitation,
      versions,
      onOpenConversation,
      branch,
      providers,
    ],
  );

  return (
    <section className="chat" aria-label="Conversation">
      {state?.connection === "offline" && (
        <div role="status" className="banner warning" data-testid="offline">
          Offline — reconnecting by itself; nothing you saw is lost.
        </div>
      )}
      {state?.connection === "signed-out" && <SignedOutBanner />}
      <TurnAnnouncer messages={transcript?.messages} ready={state?.connection === "online"} />
      {transcript?.notices.map((n) => (
        <div key={n.seq} role="status" className={`banner ${n.level}`}>
          {n.text}
        </div>
      ))}
      {transcript?.summary && (
        // What the model now reads instead of the older messages (they stay on screen below).
        <details className="earlier-summary" data-testid="earlier-summary">
          <summary>Earlier in this conversation</summary>
          <p className="muted small">{transcript.summary.text}</p>
        </details>
      )}
      {/* The list follows the stream only while the reader is at its end; scrolling up to read
          stays put. */}
      <VirtualList
        className="messages"
        testId="messages"
        handle={list}
        items={transcript?.messages ?? NO_MESSAGES}
        keyOf={messageKey}
        render={renderMessage}
        estimate={120}
        empty={
          state?.connection === "connecting" ? (
            <p className="centered muted">Connecting…</p>
          ) : (
            transcript && <p className="centered muted">Ask a question to start.</p>
          )
        }
      />
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

const NO_MESSAGES: readonly TranscriptMessage[] = [];
const messageKey = (m: TranscriptMessage) => m.id;
