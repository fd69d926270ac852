import { type ReactNode, Suspense, useCallback, useEffect, useState } from "react";
import type {
  Conversation,
  ConversationListItem,
  ProviderInfo,
} from "../../../durable-objects/protocol/rest";
import { api, type User } from "../api";
import { ConfirmDialog, TextDialog } from "../ui/dialog";
import { lazyNamed } from "../ui/lazy-named";
import { groupByDate } from "./date-groups";
import { nestBranches } from "./branch-nesting";
import { creationOf } from "./new-conversation";
import { lastActivity } from "./time";

// Loaded when first asked for (with the templates it offers) or once the page is idle (App.tsx):
// the list shows without it.
export const loadNewForm = () => import("./NewConversationForm");
const NewConversationForm = lazyNamed(loadNewForm, "NewConversationForm");

export function ConversationList(props: {
  selected: string | null;
  onSelect: (id: string | null) => void;
  user: User;
  providers: ProviderInfo[];
  onSignOut: () => void;
  onRenamed?: (c: Conversation) => void;
  /** Shown under the user's own conversations (those shared with them). */
  extra?: ReactNode;
}) {
  const [creating, setCreating] = useState(false);
  const [items, setItems] = useState<ConversationListItem[]>([]);
  const [query, setQuery] = useState("");
  // The conversation a rename or delete dialog is open for.
  const [asking, setAsking] = useState<{ action: "rename" | "delete"; c: Conversation } | null>(
    null,
  );
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
    // One its socket could not create leaves the list at once (the chat says why).
    creationOf(c.id).catch(() => setItems((xs) => xs.filter((x) => x.id !== c.id)));
  };
  const rename = async (c: Conversation, title: string) => {
    const renamed = await api.renameConversation(c.id, title);
    setItems((xs) => xs.map((x) => (x.id === c.id ? renamed : x)));
    props.onRenamed?.(renamed);
    setAsking(null);
  };
  const remove = async (c: Conversation) => {
    await api.deleteConversation(c.id);
    setItems((xs) => xs.filter((x) => x.id !== c.id));
    setAsking(null);
    if (props.selected === c.id) props.onSelect(null);
  };

  return (
    <nav className="sidebar" aria-label="Conversations">
      {creating ? (
        <Suspense fallback={<p className="muted small">Loading…</p>}>
          <NewConversationForm
            providers={props.providers}
            onCreated={created}
            onCancel={() => setCreating(false)}
          />
        </Suspense>
      ) : (
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New conversation
        </button>
      )}
      <input
        type="search"
        aria-label="Search conversations"
        placeholder="Search titles and messages"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <div className="conversation-groups">
        {groupByDate(nestBranches(items)).map(({ group, items: inGroup }) => (
          <section key={group} aria-label={group}>
            <h2 className="conversation-group">{group}</h2>
            <ul>
              {inGroup
                .flatMap((family) => family.rows)
                .map(({ item: c, depth }) => (
                  <li
                    key={c.id}
                    className={`${c.id === props.selected ? "active" : ""}${depth > 0 ? " branch" : ""}`}
                    style={
                      depth > 0 ? { paddingLeft: `${Math.min(depth, 4) * 0.9}rem` } : undefined
                    }
                  >
                    <button type="button" className="link" onClick={() => props.onSelect(c.id)}>
                      <span className="title">
                        {depth > 0 && (
                          <>
                            <span className="muted" aria-hidden="true">
                              ↳{" "}
                            </span>
                            <span className="visually-hidden">Branch: </span>
                          </>
                        )}
                        {c.title}
                      </span>
                      {c.snippet && <span className="snippet muted small">{c.snippet}</span>}
                      <span className="muted small">
                        <time dateTime={new Date(c.updatedAt).toISOString()}>
                          {lastActivity(c.updatedAt)}
                        </time>
                        {" · "}
                        {c.mode === "normal" ? c.provider : `${c.provider} · ${c.mode}`}
                      </span>
                    </button>
                    <button
                      type="button"
                      aria-label={`Rename ${c.title}`}
                      onClick={() => setAsking({ action: "rename", c })}
                    >
                      ✎
                    </button>
                    <button
                      type="button"
                      aria-label={`Delete ${c.title}`}
                      onClick={() => setAsking({ action: "delete", c })}
                    >
                      ✕
                    </button>
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
      {asking?.action === "rename" && (
        <TextDialog
          title={`Rename “${asking.c.title}”`}
          label="New title"
          initial={asking.c.title}
          submitLabel="Rename"
          problemOf={titleProblem}
          onSubmit={(title) => rename(asking.c, title)}
          onCancel={() => setAsking(null)}
        />
      )}
      {asking?.action === "delete" && (
        <ConfirmDialog
          title="Delete this conversation?"
          message={`“${asking.c.title}” and all its messages and artifacts will be deleted. This cannot be undone.`}
          confirmLabel="Delete conversation"
          onConfirm={() => remove(asking.c)}
          onCancel={() => setAsking(null)}
        />
      )}
      {props.extra}
      <footer>
        <span className="muted small">{props.user.name}</span>
        <button type="button" className="link" onClick={props.onSignOut}>
          Sign out
        </button>
      </footer>
    </nav>
  );
}

function titleProblem(title: string): string | null {
  if (!title) return "Type a title: it cannot be empty.";
  if (title.length > 200) return `Shorten the title to 200 characters (it has ${title.length}).`;
  return null;
}
