import { useCallback, useEffect, useState } from "react";
import type { Conversation, ProviderInfo } from "../../../durable-objects/protocol/rest";
import { api, type User } from "../api";
import { NewConversationForm } from "./NewConversationForm";
import { lastActivity } from "./time";

export function ConversationList(props: {
  selected: string | null;
  onSelect: (id: string | null) => void;
  user: User;
  providers: ProviderInfo[];
  onSignOut: () => void;
  onRenamed?: (c: Conversation) => void;
}) {
  const [creating, setCreating] = useState(false);
  const [items, setItems] = useState<Conversation[]>([]);
  const [query, setQuery] = useState("");
  const refresh = useCallback(() => {
    api
      .conversations(query)
      .then((r) => setItems(r.items))
      .catch(() => undefined);
  }, [query]);
  useEffect(() => {
    refresh();
    const t = setInterval(refresh, 5000);
    return () => clearInterval(t);
  }, [refresh]);

  const created = (c: Conversation) => {
    setItems((xs) => [c, ...xs]);
    setCreating(false);
    props.onSelect(c.id);
  };
  const rename = async (c: Conversation) => {
    const title = prompt("New title", c.title)?.trim();
    if (title) setItems((xs) => xs.map((x) => (x.id === c.id ? { ...x, title } : x)));
    if (title) props.onRenamed?.(await api.renameConversation(c.id, title));
  };
  const remove = async (c: Conversation) => {
    if (!confirm(`Delete “${c.title}” and everything in it?`)) return;
    await api.deleteConversation(c.id);
    setItems((xs) => xs.filter((x) => x.id !== c.id));
    if (props.selected === c.id) props.onSelect(null);
  };

  return (
    <nav className="sidebar" aria-label="Conversations">
      {creating ? (
        <NewConversationForm
          providers={props.providers}
          onCreated={created}
          onCancel={() => setCreating(false)}
        />
      ) : (
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New conversation
        </button>
      )}
      <input
        type="search"
        aria-label="Search conversations"
        placeholder="Search by title"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <ul>
        {items.map((c) => (
          <li key={c.id} className={c.id === props.selected ? "active" : ""}>
            <button type="button" className="link" onClick={() => props.onSelect(c.id)}>
              <span className="title">{c.title}</span>
              <span className="muted small">
                <time dateTime={new Date(c.updatedAt).toISOString()}>
                  {lastActivity(c.updatedAt)}
                </time>
                {" · "}
                {c.mode === "normal" ? c.provider : `${c.provider} · ${c.mode}`}
              </span>
            </button>
            <button type="button" aria-label={`Rename ${c.title}`} onClick={() => rename(c)}>
              ✎
            </button>
            <button type="button" aria-label={`Delete ${c.title}`} onClick={() => remove(c)}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      <footer>
        <span className="muted small">{props.user.name}</span>
        <button type="button" className="link" onClick={props.onSignOut}>
          Sign out
        </button>
      </footer>
    </nav>
  );
}
