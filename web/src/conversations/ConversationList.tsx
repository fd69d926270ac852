import {
  type KeyboardEvent,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import type {
  Conversation,
  ConversationListItem,
  ProviderInfo,
} from "../../../durable-objects/protocol/rest";
import { api, type User } from "../api";
import { browserStore } from "../browser-store";
import { rememberedList, rememberList } from "./remembered-details";
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
  /** A title the open conversation just got (the model named it): shown before the refresh. */
  liveTitle?: { id: string; title: string } | null;
  /** Shown under the user's own conversations (those shared with them). */
  extra?: ReactNode;
  /** The ids of the user's own conversations listed (they own each of them). */
  onOwnListed?: (ids: ReadonlySet<string>) => void;
}) {
  const [creating, setCreating] = useState(false);
  const [items, setItems] = useState<ConversationListItem[]>([]);
  const [query, setQuery] = useState("");
  // The conversation a rename or delete dialog is open for.
  const [asking, setAsking] = useState<{ action: "rename" | "delete"; c: Conversation } | null>(
    null,
  );
  const list = useRef<HTMLDivElement>(null);
  // After a delete, focus goes to the row that took the deleted one's place (its dialog's opener
  // is gone with the row): the next, else the one before, else the New conversation button.
  const focusAfterDelete = useRef<string | null>(null);
  useEffect(() => {
    const id = focusAfterDelete.current;
    if (id === null) return;
    focusAfterDelete.current = null;
    const row = openButtons(list.current).find((b) => b.dataset.row === id);
    (row ?? list.current?.closest("nav")?.querySelector<HTMLElement>("button"))?.focus();
  }, [items]);
  const userId = props.user.id;
  const refresh = useCallback(() => {
    api.conversations(query).then(
      (r) => {
        setItems(r.items);
        // Kept for a reload offline (remembered-details.ts): a search's hits are not the list.
        if (!query) rememberList(browserStore(), userId, r.items);
      },
      (err: unknown) => {
        // No answer (offline): the list as last seen, rather than none.
        if (err instanceof TypeError && !query)
          setItems((shown) => (shown.length ? shown : rememberedList(browserStore(), userId)));
      },
    );
  }, [query, userId]);
  useEffect(() => {
    refresh();
    const t = setInterval(refresh, 5000);
    return () => clearInterval(t);
  }, [refresh]);

  const { onOwnListed } = props;
  useEffect(() => onOwnListed?.(new Set(items.map((c) => c.id))), [items, onOwnListed]);

  const { liveTitle } = props;
  useEffect(() => {
    if (!liveTitle) return;
    setItems((xs) =>
      xs.map((x) =>
        x.id === liveTitle.id && x.title !== liveTitle.title ? { ...x, title: liveTitle.title } : x,
      ),
    );
  }, [liveTitle]);

  const created = (c: Conversation) => {
    setItems((xs) => [c, ...xs]);
    setCreating(false);
    props.onSelect(c.id);
    focusMessageBoxWhenShown();
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
    const rows = openButtons(list.current);
    const at = rows.findIndex((b) => b.dataset.row === c.id);
    focusAfterDelete.current = (rows[at + 1] ?? rows[at - 1])?.dataset.row ?? "";
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
      <p id={KEYS_HINT} className="visually-hidden">
        Right arrow reaches Rename and Delete; F2 renames, Delete deletes; up and down arrows move
        between conversations.
      </p>
      <div className="conversation-groups" ref={list}>
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
                    onKeyDown={(e) =>
                      rowKeys(e, {
                        rename: () => setAsking({ action: "rename", c }),
                        remove: () => setAsking({ action: "delete", c }),
                      })
                    }
                  >
                    {/* One Tab stop per conversation: its Rename and Delete are reached by arrow
                        (or F2 and Delete), not by two more Tabs each. */}
                    <button
                      type="button"
                      className="link"
                      data-row={c.id}
                      aria-describedby={KEYS_HINT}
                      aria-keyshortcuts="F2 Delete"
                      onClick={() => props.onSelect(c.id)}
                    >
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
                      tabIndex={-1}
                      aria-label={`Rename ${c.title}`}
                      onClick={() => setAsking({ action: "rename", c })}
                    >
                      ✎
                    </button>
                    <button
                      type="button"
                      tabIndex={-1}
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

const KEYS_HINT = "conversation-keys";

/**
 * The form that had the focus is gone once a conversation is created: the focus goes to the new
 * conversation's message box as soon as it shows (its code may still be loading), unless the user
 * has put it somewhere meanwhile.
 */
function focusMessageBoxWhenShown(until = Date.now() + 5000): void {
  requestAnimationFrame(() => {
    const at = document.activeElement;
    if (at && at !== document.body) return;
    const box = document.getElementById("message-box");
    if (box) box.focus();
    else if (Date.now() < until) focusMessageBoxWhenShown(until);
  });
}

/** Each row's open button, in the order shown. */
const openButtons = (list: HTMLElement | null) => [
  ...(list?.querySelectorAll<HTMLButtonElement>("button[data-row]") ?? []),
];

/** A row's keys: arrows move within it and between rows; F2 and Delete act on it. */
function rowKeys(
  e: KeyboardEvent<HTMLLIElement>,
  actions: { rename: () => void; remove: () => void },
): void {
  const inRow = [...e.currentTarget.querySelectorAll<HTMLButtonElement>(":scope > button")];
  const at = inRow.indexOf(e.target as HTMLButtonElement);
  if (at < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
  const rows = openButtons(e.currentTarget.closest(".conversation-groups"));
  const row = rows.indexOf(inRow[0]!);
  const focus = (el: HTMLElement | undefined) => el?.focus();
  switch (e.key) {
    case "ArrowRight":
      focus(inRow[at + 1]);
      break;
    case "ArrowLeft":
      focus(inRow[at - 1]);
      break;
    case "ArrowDown":
      focus(rows[row + 1]);
      break;
    case "ArrowUp":
      focus(rows[row - 1]);
      break;
    case "F2":
      actions.rename();
      break;
    case "Delete":
      actions.remove();
      break;
    default:
      return;
  }
  e.preventDefault();
}

function titleProblem(title: string): string | null {
  if (!title) return "Type a title: it cannot be empty.";
  if (title.length > 200) return `Shorten the title to 200 characters (it has ${title.length}).`;
  return null;
}
