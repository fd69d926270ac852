// Under a message: Edit a question, Regenerate an answer, or Branch here. Each makes a branch
// (nothing earlier is lost) and opens it; the versions of the message switch with ‹ n/m ›.
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import type { BranchRequest } from "../../../durable-objects/protocol/branches";
import { messageText } from "../../../durable-objects/protocol/messages";
import { type ProviderInfo, RouteModel } from "../../../durable-objects/protocol/rest";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { ProviderModelFields } from "../conversations/ProviderModelFields";
import "./branches.css";

export type BranchAction = Pick<
  BranchRequest,
  "messageId" | "step" | "text" | "provider" | "model"
>;

export function MessageActions(props: {
  message: TranscriptMessage;
  /** Makes the branch and opens it; rejects with a message a person can read. */
  onBranch: (action: BranchAction) => Promise<void>;
  /** The providers an answer can be made again with (Regenerate with…). */
  providers?: readonly ProviderInfo[] | undefined;
}) {
  const { message } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const [choosing, setChoosing] = useState<{ provider: string; model: string } | null>(null);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Closing a form puts focus back on the button that opened it (the form is gone).
  const opener = useRef<"Edit" | "Regenerate with…" | null>(null);
  const actions = useRef<HTMLDivElement>(null);
  const open = editing !== null || choosing !== null;
  useEffect(() => {
    if (open || !opener.current) return;
    const name = opener.current;
    opener.current = null;
    [...(actions.current?.querySelectorAll("button") ?? [])]
      .find((b) => b.textContent === name)
      ?.focus();
  }, [open]);
  const close = () => {
    setEditing(null);
    setChoosing(null);
    setError(null);
  };
  // Escape leaves a form as Cancel does (not while its branch is being made).
  const escape = (e: KeyboardEvent) => {
    if (e.key !== "Escape" || working) return;
    e.preventDefault();
    close();
  };
  const act = (action: BranchAction) => {
    setWorking(true);
    setError(null);
    props
      .onBranch(action)
      .then(
        () => {
          setEditing(null);
          setChoosing(null);
        },
        (err: unknown) => setError(err instanceof Error ? err.message : "The branch failed."),
      )
      .finally(() => setWorking(false));
  };
  if (message.status === "streaming") return null;

  if (editing !== null)
    return (
      <form
        className="message-edit"
        onKeyDown={escape}
        onSubmit={(e) => {
          e.preventDefault();
          if (editing.trim()) act({ messageId: message.id, text: editing.trim() });
        }}
      >
        <textarea
          aria-label="Edited message"
          value={editing}
          rows={3}
          onChange={(e) => setEditing(e.target.value)}
        />
        <div className="message-actions">
          <button type="submit" className="primary" disabled={working || !editing.trim()}>
            Send edit
          </button>
          <button type="button" onClick={close} disabled={working}>
            Cancel
          </button>
        </div>
        {error && (
          <p role="alert" className="error small">
            {error}
          </p>
        )}
      </form>
    );

  if (choosing !== null)
    return (
      <form
        className="message-edit"
        aria-label="Regenerate with another model"
        onKeyDown={escape}
        onSubmit={(e) => {
          e.preventDefault();
          const provider = RouteModel.shape.provider.safeParse(choosing.provider);
          if (provider.success)
            act({ messageId: message.id, step: 0, provider: provider.data, model: choosing.model });
          else setError(`Choose one of the providers listed (not “${choosing.provider}”).`);
        }}
      >
        <ProviderModelFields
          providers={[...(props.providers ?? [])]}
          provider={choosing.provider}
          model={choosing.model}
          onChange={(provider, model) => setChoosing({ provider, model })}
        />
        <div className="message-actions">
          <button type="submit" className="primary" disabled={working || !choosing.model}>
            Regenerate with {choosing.model || "…"}
          </button>
          <button type="button" onClick={close} disabled={working}>
            Cancel
          </button>
        </div>
        {error && (
          <p role="alert" className="error small">
            {error}
          </p>
        )}
      </form>
    );

  const firstConfigured = props.providers?.find((p) => p.configured);
  return (
    <div className="message-actions small" ref={actions}>
      {message.role === "user" ? (
        <button
          type="button"
          className="link"
          disabled={working}
          onClick={() => {
            opener.current = "Edit";
            setEditing(messageText(message.content));
          }}
        >
          Edit
        </button>
      ) : (
        <>
          <button
            type="button"
            className="link"
            disabled={working}
            onClick={() => act({ messageId: message.id, step: 0 })}
          >
            Regenerate
          </button>
          <button
            type="button"
            className="link"
            disabled={working}
            onClick={() => act({ messageId: message.id })}
          >
            Branch here
          </button>
          {firstConfigured && (
            <button
              type="button"
              className="link"
              disabled={working}
              onClick={() => {
                opener.current = "Regenerate with…";
                setChoosing({ provider: firstConfigured.id, model: firstConfigured.defaultModel });
              }}
            >
              Regenerate with…
            </button>
          )}
        </>
      )}
      {error && (
        <p role="alert" className="error small">
          {error}
        </p>
      )}
    </div>
  );
}
