// The owner's Share dialog: add people of this instance as viewers or participants, change their
// role or remove them (their open tabs follow at once), and make or revoke read-only links.
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import type { MemberList, MemberRole, ShareLink } from "../../../durable-objects/protocol/sharing";
import { type SharingApi, sharingApi } from "./sharing-api";
import "../ui/dialog.css";

const EXPIRY_CHOICES = [
  { label: "Never expires", days: undefined },
  { label: "1 day", days: 1 },
  { label: "7 days", days: 7 },
  { label: "30 days", days: 30 },
] as const;

export function ShareDialog(props: {
  conversationId: string;
  onClose: () => void;
  /** The REST calls (tests pass their own). */
  api?: SharingApi;
}) {
  const api = props.api ?? sharingApi;
  const { conversationId, onClose } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [members, setMembers] = useState<MemberList | null>(null);
  const [links, setLinks] = useState<ShareLink[]>([]);
  const [name, setName] = useState("");
  const [role, setRole] = useState<MemberRole>("participant");
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [expiry, setExpiry] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (err) {
      setProblem(err instanceof Error ? err.message : "That did not work. Try again.");
    } finally {
      setBusy(false);
    }
  }, []);

  useEffect(() => {
    void run(async () => {
      const [m, l] = await Promise.all([api.members(conversationId), api.links(conversationId)]);
      setMembers(m);
      setLinks(l.items);
    });
  }, [api, conversationId, run]);

  useEffect(() => {
    const q = name.trim();
    if (!q) return setSuggestions([]);
    let live = true;
    api
      .users(q)
      .then((r) => live && setSuggestions(r.items.map((u) => u.name)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, name]);

  const add = (e: FormEvent) => {
    e.preventDefault();
    const who = name.trim();
    if (!who) return setProblem("Type the name of a user of this instance.");
    void run(async () => {
      setMembers(await api.share(conversationId, who, role));
      setName("");
    });
  };
  const changeRole = (userId: string, next: MemberRole) =>
    run(async () => setMembers(await api.share(conversationId, userId, next)));
  const remove = (userId: string) =>
    run(async () => {
      await api.remove(conversationId, userId);
      setMembers(await api.members(conversationId));
    });
  const createLink = () =>
    run(async () => {
      const link = await api.createLink(conversationId, EXPIRY_CHOICES[expiry]?.days);
      setLinks((known) => [link, ...known]);
    });
  const revokeLink = (linkId: string) =>
    run(async () => {
      await api.revokeLink(conversationId, linkId);
      setLinks((known) => known.filter((l) => l.id !== linkId));
    });

  return (
    <dialog
      ref={ref}
      className="app-dialog share-dialog"
      aria-labelledby={titleId}
      data-testid="share-dialog"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>Share this conversation</h2>
      <form className="share-add" onSubmit={add}>
        <label htmlFor={`${titleId}-name`}>Add a person (their user name)</label>
        <div className="share-row">
          <input
            id={`${titleId}-name`}
            value={name}
            list={`${titleId}-users`}
            autoComplete="off"
            data-testid="share-name"
            onChange={(e) => setName(e.target.value)}
          />
          <datalist id={`${titleId}-users`}>
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <select
            aria-label="Role"
            value={role}
            data-testid="share-role"
            onChange={(e) => setRole(e.target.value as MemberRole)}
          >
            <option value="participant">Participant (can write)</option>
            <option value="viewer">Viewer (read only)</option>
          </select>
          <button type="submit" className="primary" disabled={busy} data-testid="share-add">
            Add
          </button>
        </div>
      </form>
      <h3>People</h3>
      <ul className="share-list" data-testid="share-members">
        {members && <li className="muted small">{members.owner.name} · owner</li>}
        {members?.members.map((m) => (
          <li key={m.user.id} data-testid="share-member">
            <span>{m.user.name}</span>
            <select
              aria-label={`Role of ${m.user.name}`}
              value={m.role}
              disabled={busy}
              onChange={(e) => void changeRole(m.user.id, e.target.value as MemberRole)}
            >
              <option value="participant">Participant</option>
              <option value="viewer">Viewer</option>
            </select>
            <button type="button" disabled={busy} onClick={() => void remove(m.user.id)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <h3>Read-only links</h3>
      <p className="muted small">
        Anyone with a link sees the conversation as it is now (later messages are not shown), until
        you revoke the link or it expires.
      </p>
      <div className="share-row">
        <select
          aria-label="Link expiry"
          value={expiry}
          onChange={(e) => setExpiry(Number(e.target.value))}
        >
          {EXPIRY_CHOICES.map((c, i) => (
            <option key={c.label} value={i}>
              {c.label}
            </option>
          ))}
        </select>
        <button type="button" disabled={busy} onClick={() => void createLink()}>
          Create link
        </button>
      </div>
      <ul className="share-list" data-testid="share-links">
        {links.map((l) => (
          <li key={l.id}>
            <input readOnly value={l.url} aria-label="Link" onFocus={(e) => e.target.select()} />
            <span className="muted small">
              {l.expiresAt ? `until ${new Date(l.expiresAt).toLocaleDateString()}` : "no expiry"}
            </span>
            <button type="button" disabled={busy} onClick={() => void revokeLink(l.id)}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      {problem && (
        <p role="alert" className="error small">
          {problem}
        </p>
      )}
      <div className="app-dialog-actions">
        <button type="button" onClick={onClose}>
          Done
        </button>
      </div>
    </dialog>
  );
}
