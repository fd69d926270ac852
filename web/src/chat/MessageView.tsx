// One message of the conversation. An answer shows, in the order they happened, its reasoning,
// the tool calls of each step (expandable: arguments, result, progress), its text as markdown
// and buttons for its artifacts; under it the log lines and, if the turn failed, why.
import { memo } from "react";
import type { MessagePart } from "../../../durable-objects/protocol/messages";
import type { Activity, TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import type { ApprovalAnswer } from "../../../durable-objects/protocol/wire";
import { Markdown } from "../markdown/Markdown";
import { MessageAttachments } from "../attachments/MessageAttachments";
import { ApprovalCard } from "./ApprovalCard";
import { ElicitationCard } from "./ElicitationCard";
import type { ElicitationAnswer } from "../../../durable-objects/protocol/elicitation";
import { describeError } from "./error-words";
import { SignInNotices } from "./SignInNotice";
import type { UsageTotals } from "../../../durable-objects/protocol/usage";
import { UsageMeter } from "../usage/UsageMeter";
import { ToolCalls } from "./ToolCalls";
import { StepTimingsList } from "./StepTimings";
import type { MessageAlternatives } from "../../../durable-objects/protocol/branches";
import type { ProviderInfo } from "../../../durable-objects/protocol/rest";
import { Alternatives } from "./Alternatives";
import { type BranchAction, MessageActions } from "./MessageActions";
import { StepModels } from "./StepModels";
import { TurnNotices } from "./TurnNotices";
import { logLineText } from "./log-line";
import type { Answerer } from "../sharing/answerer";

type ToolCall = Extract<MessagePart, { type: "tool_call" }>;

/** Consecutive tool calls of one step form one block; everything else stands alone. */
type Block =
  | { kind: "part"; part: MessagePart; key: number }
  | { kind: "calls"; calls: ToolCall[]; key: number };

export function blocksOf(
  content: readonly MessagePart[],
  callSteps: Readonly<Record<string, number>> = {},
): Block[] {
  const blocks: Block[] = [];
  content.forEach((part, i) => {
    const last = blocks.at(-1);
    if (part.type !== "tool_call") blocks.push({ kind: "part", part, key: i });
    else if (last?.kind === "calls" && callSteps[last.calls[0]!.callId] === callSteps[part.callId])
      last.calls.push(part);
    else blocks.push({ kind: "calls", calls: [part], key: i });
  });
  return blocks;
}

export const MessageView = memo(function MessageView(props: {
  message: TranscriptMessage;
  /** Tokens and cost of this answer (live while it streams). */
  usage?: UsageTotals | undefined;
  onOpenArtifact: (id: string) => void;
  onAnswerApproval?: (approvalId: string, answer: ApprovalAnswer) => boolean | undefined;
  onAnswerElicitation?: (id: string, answer: ElicitationAnswer) => boolean | undefined;
  /** The versions of this message across branches (‹ n/m ›), when it has more than one. */
  versions?: MessageAlternatives | undefined;
  onOpenConversation?: (conversationId: string) => void;
  /** Edit, Regenerate, Branch here and Branch after a step; without it, none are offered. */
  onBranch?: (action: BranchAction) => Promise<void>;
  /** Who wrote a user message, when the conversation has several people. */
  author?: string | undefined;
  /** The providers Regenerate with… offers. */
  providers?: readonly ProviderInfo[] | undefined;
  /** Sends the question of this answer again (after a sign-in it asked for); absent for viewers. */
  onAskAgain?: ((answerId: string) => void) | undefined;
  /** Who answers approvals and questions here (shared conversations): their role, and names. */
  answerer?: Answerer | undefined;
}) {
  const { message, onBranch } = props;
  const activity = message.activity;
  const streaming = message.status === "streaming";
  return (
    <article
      className={`message ${message.role}`}
      data-status={message.status}
      data-testid={`message-${message.role}`}
      aria-busy={streaming}
    >
      {props.author && (
        <p className="message-author muted small" data-testid="message-author">
          {props.author}
        </p>
      )}
      {message.role === "user" ? (
        <>
          {message.content.map((p, i) =>
            p.type === "text" ? (
              <p key={i} className="text">
                {p.text}
              </p>
            ) : null,
          )}
          <MessageAttachments
            parts={message.content.filter((p) => p.type === "attachment")}
            onOpenArtifact={props.onOpenArtifact}
          />
        </>
      ) : (
        <>
          {streaming && activity && activity.maxSteps > 0 && (
            <p className="step-indicator muted small" role="status" data-testid="step-indicator">
              Step {activity.step} of {activity.maxSteps}
            </p>
          )}
          {activity?.stepModels && <StepModels entries={activity.stepModels} />}
          {blocksOf(message.content, activity?.callSteps).map((b) =>
            b.kind === "calls" ? (
              <div key={b.key}>
                <ToolCalls calls={b.calls} activity={activity} />
                {onBranch && !streaming && (
                  <BranchAfterStep
                    messageId={message.id}
                    step={activity?.callSteps[b.calls[0]!.callId]}
                    onBranch={onBranch}
                  />
                )}
              </div>
            ) : (
              <Part key={b.key} part={b.part} onOpenArtifact={props.onOpenArtifact} />
            ),
          )}
          {Object.values(activity?.approvals ?? {}).map((a) => (
            <ApprovalCard
              key={a.approvalId}
              approval={a}
              {...(props.onAnswerApproval && { onAnswer: props.onAnswerApproval })}
              {...(props.answerer && { answerer: props.answerer })}
            />
          ))}
          {Object.values(activity?.elicitations ?? {}).map((e) => (
            <ElicitationCard
              key={e.elicitationId}
              elicitation={e}
              {...(props.onAnswerElicitation && { onAnswer: props.onAnswerElicitation })}
              {...(props.answerer && { answerer: props.answerer })}
            />
          ))}
          {activity?.stepTimings && <StepTimingsList timings={activity.stepTimings} />}
          {activity && (
            <ActivityFooter
              activity={activity}
              onAskAgain={props.onAskAgain && (() => props.onAskAgain?.(message.id))}
            />
          )}
          {props.usage && <UsageMeter usage={props.usage} label="This answer" live={streaming} />}
        </>
      )}
      {streaming && (
        <span className="muted small typing" aria-label="Answer in progress">
          …
        </span>
      )}
      {message.status !== "complete" && message.status !== "streaming" && (
        <p className="muted small">{STATUS_WORDS[message.status]}</p>
      )}
      {props.versions && props.onOpenConversation && (
        <Alternatives versions={props.versions} onOpen={props.onOpenConversation} />
      )}
      {onBranch && (
        <MessageActions message={message} onBranch={onBranch} providers={props.providers} />
      )}
    </article>
  );
});

const STATUS_WORDS = {
  interrupted: "This answer was interrupted; what it had found so far is kept above.",
  failed: "This answer failed.",
  cancelled: "You stopped this answer.",
} as const;

function Part(props: { part: MessagePart; onOpenArtifact: (id: string) => void }) {
  const { part } = props;
  switch (part.type) {
    case "text":
      return <Markdown text={part.text} />;
    case "reasoning":
      return (
        <details className="reasoning">
          <summary>Reasoning</summary>
          <p className="text">{part.text}</p>
        </details>
      );
    case "artifact":
      // The title is the artifact's now (renamed in the pane, here or elsewhere); a deleted one
      // says so rather than opening to "no longer exists".
      return part.deleted ? (
        <button
          type="button"
          className="artifact-button"
          data-artifact-type={part.artifactType}
          data-deleted=""
          disabled
        >
          {part.title} <span className="artifact-button-note">(deleted)</span>
        </button>
      ) : (
        <button
          type="button"
          className="artifact-button"
          data-artifact-type={part.artifactType}
          onClick={() => props.onOpenArtifact(part.artifactId)}
        >
          {part.title}
        </button>
      );
    case "tool_call":
    case "attachment":
      return null;
  }
}

function ActivityFooter({
  activity,
  onAskAgain,
}: {
  activity: Activity;
  onAskAgain: (() => void) | undefined;
}) {
  return (
    <>
      <TurnNotices log={activity.log} />
      <SignInNotices log={activity.log} onAskAgain={onAskAgain} />
      {activity.log.length > 0 && (
        <details className="tool-log">
          <summary className="muted small">Log ({activity.log.length})</summary>
          <ul>
            {activity.log.map((l) => (
              <li key={l.seq} className={`log-${l.level}`}>
                <span className="muted">[{l.source}]</span> {logLineText(l.text)}
              </li>
            ))}
          </ul>
        </details>
      )}
      {activity.error && (
        <p role="alert" className="error">
          {describeError(activity.error)}
        </p>
      )}
    </>
  );
}

/** A tool step's own branch point: the branch keeps the answer up to this step and goes on. */
function BranchAfterStep(props: {
  messageId: string;
  step: number | undefined;
  onBranch: (action: BranchAction) => Promise<void>;
}) {
  const { step } = props;
  // Steps are known from the live events; copied history shows its calls without them.
  if (step === undefined) return null;
  return (
    <button
      type="button"
      className="link small branch-step"
      onClick={() =>
        void props.onBranch({ messageId: props.messageId, step }).catch(() => undefined)
      }
    >
      Branch after step {step}
    </button>
  );
}
