// Conversations other people shared with you, under your own in the sidebar.
import { useEffect, useState } from "react";
import type { SharedConversation } from "../../../durable-objects/protocol/sharing";
import { browserStore } from "../browser-store";
import { rememberedShared, rememberShared } from "../conversations/remembered-details";
import { sharingApi } from "./sharing-api";
import "./sharing.css";

export function SharedWithMe(props: {
  selected: string | null;
  onSelect: (id: string) => void;
  /** Changed when the user left one: it goes from the list at once. */
  revision?: number;
  /** Whose list it is: kept for a reload offline, which shows it as last loaded. */
  userId: string;
}) {
  const [items, setItems] = useState<SharedConversation[]>([]);
  const { selected, revision, userId } = props;
  // Reloaded when the selection changes: a new share shows up without a page reload.
  useEffect(() => {
    let live = true;
    sharingApi.sharedWithMe().then(
      (r) => {
        rememberShared(browserStore(), userId, r.items);
        if (live) setItems(r.items);
      },
      (err: unknown) => {
        // No answer (offline): the list as last loaded, rather than none.
        if (live && err instanceof TypeError)
          setItems((shown) => (shown.length ? shown : rememberedShared(browserStore(), userId)));
      },
    );
    return () => {
      live = false;
    };
  }, [selected, revision, userId]);
  if (items.length === 0) return null;
  return (
    <nav className="shared-with-me" aria-label="Shared with you" data-testid="shared-with-me">
      <h2 className="small muted">Shared with you</h2>
      <ul>
        {items.map((s) => (
          <li key={s.conversation.id}>
            <button
              type="button"
              aria-current={s.conversation.id === selected}
              onClick={() => props.onSelect(s.conversation.id)}
            >
              {s.conversation.title}
              <span className="muted small">
                {" "}
                · {s.owner.name} · {s.role}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
