// A turn skipped an MCP server until the user signs in: the notice says so in the answer, with a
// Connect button that opens the same sign-in popup as Settings → MCP servers. Once connected, it
// offers to ask the answer's question again, so the user need not type it a second time.
import { useCallback, useState } from "react";
import type {
  Activity,
  NoticeAction,
  TranscriptMessage,
} from "../../../durable-objects/protocol/transcript";
import { ApiFailure } from "../api";
import { type SignInResult, startSignIn, useSignInResults } from "../settings/mcp-sign-in";

export type SignInProgress =
  | { kind: "idle" }
  | { kind: "waiting" }
  | { kind: "connected" }
  | { kind: "failed"; message: string };

/** Connect pressed in the timeline: the popup flow of Settings, and where it got to. */
export async function connectFromNotice(serverId: string): Promise<SignInProgress> {
  try {
    const outcome = await startSignIn(serverId);
    if (outcome.kind === "opened") return { kind: "waiting" };
    return outcome.kind === "connected" ? outcome : { kind: "failed", message: outcome.message };
  } catch (err) {
    return {
      kind: "failed",
      message: err instanceof ApiFailure ? err.message : "Connect did not work; try again.",
    };
  }
}

type ActionLine = Activity["log"][number] & { action: NoticeAction };

/** The newest sign-in notice of each server in the log, oldest server first. */
export function signInNotices(log: Activity["log"]): ActionLine[] {
  const byServer = new Map<string, ActionLine>();
  for (const line of log)
    if (line.action?.kind === "mcp_sign_in") byServer.set(line.action.serverId, line as ActionLine);
  return [...byServer.values()];
}

/** A question to send again: its text and its attached files. */
export type Question = { text: string; attachments: string[] };

/** The user's message the answer `answerId` replied to, as it can be sent again. */
export function questionBefore(
  messages: readonly TranscriptMessage[],
  answerId: string,
): Question | null {
  const at = messages.findIndex((m) => m.id === answerId);
  const question = messages.slice(0, Math.max(at, 0)).findLast((m) => m.role === "user");
  if (!question) return null;
  const text = question.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
  const attachments = question.content.flatMap((p) =>
    p.type === "attachment" ? [p.artifactId] : [],
  );
  return text.trim() || attachments.length > 0 ? { text, attachments } : null;
}

export function SignInNotices({
  log,
  onAskAgain,
}: {
  log: Activity["log"];
  /** Sends the answer's question again; absent where this user cannot send. */
  onAskAgain?: (() => void) | undefined;
}) {
  return signInNotices(log).map((line) => (
    <SignInNotice key={line.seq} line={line} onAskAgain={onAskAgain} />
  ));
}

function SignInNotice({
  line,
  onAskAgain,
}: {
  line: ActionLine;
  onAskAgain: (() => void) | undefined;
}) {
  const { serverId, serverName } = line.action;
  const [progress, setProgress] = useState<SignInProgress>({ kind: "idle" });
  const [askedAgain, setAskedAgain] = useState(false);
  useSignInResults(
    useCallback(
      (result: SignInResult) => {
        if (result.serverId === serverId)
          setProgress(
            result.ok ? { kind: "connected" } : { kind: "failed", message: result.message },
          );
      },
      [serverId],
    ),
  );
  const connect = async () => {
    setProgress({ kind: "waiting" });
    setProgress(await connectFromNotice(serverId));
  };
  return (
    <div className="banner warning sign-in-notice" data-testid="sign-in-notice">
      <p role="status">
        {progress.kind !== "connected"
          ? line.text
          : askedAgain
            ? `Connected to ${serverName}: asked again below, with its tools.`
            : onAskAgain
              ? `Connected to ${serverName}. Ask again to have it answered with its tools.`
              : `Connected to ${serverName}: your next message can use its tools.`}
      </p>
      {progress.kind === "waiting" && (
        <p className="muted small">Finish signing in in the window that opened.</p>
      )}
      {progress.kind === "failed" && (
        <p role="alert" className="error small">
          {progress.message}
        </p>
      )}
      {progress.kind === "connected" && onAskAgain && !askedAgain && (
        <button
          type="button"
          className="primary"
          aria-label={`Ask again with ${serverName}`}
          onClick={() => {
            setAskedAgain(true);
            onAskAgain();
          }}
        >
          Ask again
        </button>
      )}
      {progress.kind !== "connected" && (
        <button
          type="button"
          className="primary"
          aria-label={`Connect ${serverName}`}
          onClick={connect}
        >
          Connect
        </button>
      )}
    </div>
  );
}
