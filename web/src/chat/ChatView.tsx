// The open conversation: its messages as they stream, the composer, and the connection's state.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ElicitationAnswer } from "../../../durable-objects/protocol/elicitation";
import type { ProviderInfo } from "../../../durable-objects/protocol/rest";
import type { ArtifactNow, TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import type { ApprovalAnswer } from "../../../durable-objects/protocol/wire";
import { Composer } from "../composer/Composer";
import { LiveConversation, type LiveState } from "./live-conversation";
import { Outbox } from "./outbox";
import { browserStore } from "../browser-store";
import { lastUser } from "../last-user";
import { MessageView } from "./MessageView";
import { artifactsShown } from "./artifact-count";
import { SignedOutBanner } from "./SignedOutBanner";
import { questionBefore } from "./SignInNotice";
import { conversationTotal, usagePerAnswer } from "../usage/merge-usage";
import { UsageMeter } from "../usage/UsageMeter";
import { useConversationUsage } from "../usage/use-conversation-usage";
import { useRememberedTranscript } from "./use-remembered-transcript";
import { VirtualList, type VirtualListHandle } from "./VirtualList";
import { TurnAnnouncer } from "./TurnAnnouncer";
import { branchConversation, useAlternatives } from "./branch-api";
import type { BranchAction } from "./MessageActions";
import { TemplateStart } from "./TemplateStart";
import type { TemplateContext } from "../../../durable-objects/protocol/template-context";
import "./chat.css";
import type { ConversationRole, MemberList } from "../../../durable-objects/protocol/sharing";
import { seesUsage } from "../../../durable-objects/protocol/roles";
import { authorLabel, isShared } from "../sharing/author-label";
import { useAnswerer } from "../sharing/answerer";
import { PresenceBar } from "../sharing/PresenceBar";
import { ViewerNotice } from "../sharing/ViewerNotice";
import { useTyping } from "../sharing/use-typing";
import { rememberedRole, rememberRole } from "../sharing/remembered-role";
import "../sharing/sharing.css";

export function ChatView(props: {
  conversationId: string;
  onOpenArtifact: (id: string) => void;
  /** Called with the number of artifacts the answers have made so far, when it changes. */
  onArtifactCount?: (count: number) => void;
  /** Called with the artifacts changed since they were made (live and replayed), when they change. */
  onArtifactsChanged?: (artifacts: Readonly<Record<string, ArtifactNow>>) => void;
  /** Titles of the pinned artifacts, which go with the next message. */
  pinned?: readonly string[];
  /** Called when the model names the conversation (live, in every open tab). */
  onTitle?: (title: string) => void;
  /** Opens another conversation: a branch just made, or another version of a message. */
  onOpenConversation?: (conversationId: string) => void;
  /** The signed-in user's id: their own messages say "You" in a shared conversation. */
  me?: string;
  /** Who has the conversation and the user's role (loaded by the app; presence updates it). */
  membership?: MemberList | null;
  /** The template the conversation was made from: its starting messages open the conversation. */
  template?: TemplateContext | undefined;
  /** The providers an answer can be regenerated with. */
  providers?: readonly ProviderInfo[];
  /** The owner changed this user's role while the conversation is open (presence says so). */
  onRoleChange?: (role: ConversationRole) => void;
  /** The user left this conversation elsewhere (another tab): the page says so, not the chat. */
  onLeft?: () => void;
  /** The owner stopped sharing this conversation with the user while it was open. */
  onRevoked?: () => void;
}) {
  const { conversationId, onArtifactCount, onArtifactsChanged, onTitle } = props;
  const [state, setState] = useState<LiveState | null>(null);
  const live = useRef<LiveConversation | null>(null);
  const list = useRef<VirtualListHandle>(null);
  const section = useRef<HTMLElement>(null);

  const me = props.me ?? null;
  useEffect(() => {
    // Sends not yet acknowledged outlive the page: this user's, in this browser (outbox.ts).
    const store = browserStore();
    const outbox = me && store ? new Outbox(store, me, conversationId) : null;
    // The browser's last confirmed user changes when another account signs in in another tab
    // (unchanged since the conversation opened is still this user: their own write may have
    // failed).
    const atOpen = lastUser(store)?.id;
    const stillMe = () => {
      const now = lastUser(store)?.id;
      return !me || !now || now === me || now === atOpen;
    };
    const conversation = new LiveConversation(conversationId, setState, outbox, stillMe);
    live.current = conversation;
    return () => conversation.close();
  }, [conversationId, me]);

  const artifactCount = state ? artifactsShown(state.transcript.messages) : 0;
  // Resources attached from the composer become artifacts before any answer names them.
  const [attachedArtifacts, setAttachedArtifacts] = useState(0);
  // So do uploaded files, before their message is sent.
  const [uploadedFiles, setUploadedFiles] = useState(0);
  const shownArtifacts = artifactCount + attachedArtifacts + uploadedFiles;
  useEffect(() => onArtifactCount?.(shownArtifacts), [shownArtifacts, onArtifactCount]);
  // Edits, renames, pins and deletions of artifacts, from any tab: the pane follows them.
  const changedArtifacts = state?.transcript.artifacts;
  useEffect(() => {
    if (changedArtifacts) onArtifactsChanged?.(changedArtifacts);
  }, [changedArtifacts, onArtifactsChanged]);
  const title = state?.transcript.title;
  useEffect(() => {
    if (title) onTitle?.(title);
  }, [title, onTitle]);

  const reportTyping = useCallback((typing: boolean) => live.current?.typing(typing), []);
  const onTyping = useTyping(reportTyping);
  // The live role wins: the owner may change it while the conversation is open. Until either is
  // known (null) the page offers only what a viewer may do: no send, no usage, no answers.
  const liveRole = state?.presence?.you.role;
  const knownRole = liveRole ?? props.membership?.role ?? null;
  const role = knownRole ?? "viewer";
  // The role last known here (remembered-role.ts): while no role is known (a reload offline
  // reads no members), it opens the message box of a conversation the user could write to; what
  // they send waits in the outbox. Nothing else goes by it.
  const remembered = useMemo(
    () => (me ? rememberedRole(browserStore(), me, conversationId) : null),
    [me, conversationId],
  );
  useEffect(() => {
    if (me && knownRole) rememberRole(browserStore(), me, conversationId, knownRole);
  }, [me, conversationId, knownRole]);
  const boxRole = knownRole ?? remembered;
  const { onRoleChange } = props;
  const loadedRole = props.membership?.role;
  // The page around the chat (its header: "you are a participant") follows a live change too.
  useEffect(() => {
    if (liveRole && loadedRole && liveRole !== loadedRole) onRoleChange?.(liveRole);
  }, [liveRole, loadedRole, onRoleChange]);
  const revoked = state?.connection === "access-revoked";
  const left = state?.connection === "left";
  const { onLeft } = props;
  useEffect(() => {
    if (left) onLeft?.();
  }, [left, onLeft]);
  const { onRevoked } = props;
  useEffect(() => {
    if (revoked) onRevoked?.();
  }, [revoked, onRevoked]);
  const deleted = state?.connection === "deleted";
  const shared = isShared(
    state?.transcript.messages ?? NO_MESSAGES,
    state?.presence?.people.length ?? 0,
    (props.membership?.members.length ?? 0) > 0 || (knownRole !== null && knownRole !== "owner"),
  );
  const answerer = useAnswerer({
    role,
    me,
    shared,
    membership: props.membership,
    presence: state?.presence,
  });

  const send = (text: string, attachments: string[]) => {
    live.current?.send(text, attachments);
    list.current?.scrollToEnd();
  };
  const transcript = state?.transcript;
  // Until the socket catches up (offline after a reload, say), the messages last seen here.
  const shownMessages = useRememberedTranscript(me, conversationId, state) ?? NO_MESSAGES;
  // Read when Ask again is pressed, so the callback stays the same while an answer streams.
  const messagesNow = useRef(transcript?.messages ?? NO_MESSAGES);
  messagesNow.current = transcript?.messages ?? NO_MESSAGES;
  const canSend = !(
    role === "viewer" ||
    revoked ||
    left ||
    deleted ||
    state?.connection === "not-created"
  );
  const viewing = knownRole === "viewer" || revoked || left || deleted;
  const askAgain = useCallback((answerId: string) => {
    const question = questionBefore(messagesNow.current, answerId);
    if (!question) return;
    live.current?.send(question.text, question.attachments);
    list.current?.scrollToEnd();
  }, []);
  const storedUsage = useConversationUsage(
    conversationId,
    !!transcript?.busy,
    role,
    transcript?.usageRecordedSeq,
    state?.connection === "online",
  );
  // A viewer sees no cost (made one mid-conversation, the figures seen so far go too).
  const usage = usagePerAnswer(
    storedUsage,
    new Map(
      (seesUsage(role) ? (transcript?.messages ?? []) : []).flatMap((m) =>
        m.activity?.usage ? [[m.id, m.activity.usage] as const] : [],
      ),
    ),
  );
  const conversationUsage = conversationTotal(usage, storedUsage);
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
  // Branches are the owner's conversations: a member has no versions to open and cannot branch.
  // Owner-only actions wait until the role is known (the app passes null while it loads).
  const owns = knownRole === "owner";
  const versions = useAlternatives(conversationId, !!transcript?.busy, owns);
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
        {...(onOpenConversation && { onOpenConversation, ...(owns && { onBranch: branch }) })}
        author={authorLabel(m, me, shared)}
        {...(canSend && { onAskAgain: askAgain })}
        answerer={answerer}
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
      owns,
      me,
      shared,
      providers,
      canSend,
      askAgain,
      answerer,
    ],
  );

  return (
    <section ref={section} className="chat" aria-label="Conversation">
      {state?.connection === "offline" && (
        <div role="status" className="banner warning" data-testid="offline">
          Offline — reconnecting by itself; nothing you saw is lost.
        </div>
      )}
      {state?.connection === "signed-out" && <SignedOutBanner />}
      {revoked && (
        <div role="alert" className="banner warning" data-testid="access-revoked">
          The owner stopped sharing this conversation with you. What you saw stays on screen;
          nothing new arrives.
        </div>
      )}
      {left && (
        <div role="alert" className="banner warning" data-testid="left-elsewhere">
          You left this conversation (in another tab or window). What you saw stays on screen;
          nothing new arrives. Only its owner can share it with you again.
        </div>
      )}
      {deleted && (
        <div role="alert" className="banner warning" data-testid="conversation-deleted">
          {knownRole === "owner"
            ? "This conversation was deleted."
            : "Its owner deleted this conversation."}{" "}
          What you saw stays on screen until you leave; nothing can be sent to it any more.
        </div>
      )}
      <PresenceBar presence={state?.presence ?? null} />
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
      {props.template && (
        <TemplateStart
          template={props.template}
          open={!!transcript && shownMessages.length === 0}
        />
      )}
      {/* The list follows the stream only while the reader is at its end; scrolling up to read
          stays put. */}
      <VirtualList
        className="messages"
        testId="messages"
        handle={list}
        items={shownMessages}
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
      {state &&
        state.connection !== "online" &&
        state.pending.length > 0 &&
        (revoked || left || deleted ? (
          // The conversation is no longer theirs: these never go (the banner says why).
          <ul className="muted small pending-sends" aria-label="Not sent">
            {state.pending.map((p) => (
              <li key={p.clientMessageId}>
                Not sent: “{p.text}”
                {p.files > 0 && ` with ${p.files === 1 ? "1 file" : `${p.files} files`}`}. It cannot
                go to this conversation any more; copy it if you need it.
              </li>
            ))}
          </ul>
        ) : (
          <ul className="muted small pending-sends" aria-label="Waiting to be sent">
            {state.pending.map((p) => (
              <li key={p.clientMessageId}>
                Waiting for the connection to send “{excerpt(p.text)}”
                {p.files > 0 && ` with ${p.files === 1 ? "1 file" : `${p.files} files`}`}: it goes
                as soon as the connection is back.
              </li>
            ))}
          </ul>
        ))}
      {state?.error && (
        <p role="alert" className="error composer-error">
          {state.error}
        </p>
      )}
      {(conversationUsage.calls > 0 || (transcript?.messages.length ?? 0) > 0) && (
        <div className="conversation-usage">
          {conversationUsage.calls > 0 && (
            <UsageMeter usage={conversationUsage} label="This conversation" />
          )}
          <span className="small conversation-downloads">
            Export:{" "}
            <a
              href={`/api/conversations/${conversationId}/export`}
              download
              data-testid="export-markdown"
            >
              Markdown
            </a>{" "}
            ·{" "}
            <a href={`/api/conversations/${conversationId}/export?format=json`} download>
              JSON
            </a>
            {owns && conversationUsage.calls > 0 && (
              <>
                {" "}
                ·{" "}
                <a
                  href={`/api/conversations/${conversationId}/audit`}
                  download
                  data-testid="audit-download"
                >
                  Download audit log (JSON Lines)
                </a>
              </>
            )}
          </span>
        </div>
      )}
      {props.pinned && props.pinned.length > 0 && (
        <p className="muted small pinned-note" data-testid="pinned-note">
          📌 Sent with your next message: {props.pinned.join(", ")}
        </p>
      )}
      {/* A conversation its socket could not create takes no messages; the alert says why. */}
      {state?.connection === "not-created" ? null : viewing ? (
        <ViewerNotice
          reason={deleted ? "deleted" : revoked ? "revoked" : left ? "left" : "viewer"}
          owner={props.membership?.owner.name}
        />
      ) : (
        <Composer
          conversationId={conversationId}
          busy={!!transcript?.busy}
          onSend={send}
          dropZone={section}
          returned={state?.refused ?? null}
          onCancel={() => live.current?.cancel()}
          onArtifactsAttached={(n) => setAttachedArtifacts((count) => count + n)}
          onUploadsChanged={setUploadedFiles}
          onTyping={onTyping}
          canUseMcpCatalog={owns}
          waiting={boxRole === null || boxRole === "viewer" ? ROLE_LOADING : null}
        />
      )}
    </section>
  );
}

const NO_MESSAGES: readonly TranscriptMessage[] = [];
const ROLE_LOADING =
  "Loading your role in this conversation… The box opens once it is known (a viewer reads only).";
const excerpt = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);
const messageKey = (m: TranscriptMessage) => m.id;
