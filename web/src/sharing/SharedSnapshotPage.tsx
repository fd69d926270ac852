// What a read-only link shows: the conversation as it was when the link was made, to anyone with
// the link, without signing in. Text is rendered like the chat (sanitised markdown).
import { useEffect, useState } from "react";
import type { ChatMessage, MessagePart } from "../../../durable-objects/protocol/messages";
import type { SharedSnapshot } from "../../../durable-objects/protocol/sharing";
import { Markdown } from "../markdown/Markdown";
import { sharingApi } from "./sharing-api";
import { SnapshotArtifacts } from "./SnapshotArtifacts";
import "./sharing.css";

export function SharedSnapshotPage(props: { token: string }) {
  const [snapshot, setSnapshot] = useState<SharedSnapshot | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    sharingApi
      .snapshot(props.token)
      .then(setSnapshot)
      .catch((err: unknown) => setProblem(err instanceof Error ? err.message : String(err)));
  }, [props.token]);
  if (problem)
    return (
      <p role="alert" className="centered error">
        {problem}
      </p>
    );
  if (!snapshot) return <p className="centered muted">Loading…</p>;
  return (
    <main className="shared-snapshot" data-testid="shared-snapshot">
      <h1>{snapshot.title}</h1>
      <p className="muted small">
        Shared by {snapshot.owner.name} on {new Date(snapshot.sharedAt).toLocaleString()} · read
        only
      </p>
      {snapshot.messages.map((m) => (
        <article key={m.id} className={`message ${m.role}`}>
          {m.role === "user" && m.author && (
            <p className="message-author muted small">{m.author.name}</p>
          )}
          {m.content.map((p, i) => (
            <SnapshotPart key={i} part={p} role={m.role} />
          ))}
        </article>
      ))}
      <SnapshotArtifacts token={props.token} artifacts={snapshot.artifacts} />
    </main>
  );
}

/** One part of a message: text as the chat shows it; an artifact or a file by name, as it is now. */
export function SnapshotPart({ part, role }: { part: MessagePart; role: ChatMessage["role"] }) {
  switch (part.type) {
    case "text":
      return role === "user" ? <p className="text">{part.text}</p> : <Markdown text={part.text} />;
    case "artifact":
      return (
        <p className="muted small">
          Artifact: {part.title}
          {part.deleted && " (deleted)"}
        </p>
      );
    case "attachment":
      return (
        <p className="muted small">
          Attached: {part.name}
          {part.deleted && " (deleted)"}
        </p>
      );
    default:
      return null;
  }
}
