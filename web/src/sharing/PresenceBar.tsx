// Who else has the conversation open, and who is typing (from the socket's presence frames).
import type { Presence } from "../chat/live-conversation";

const ROLE_WORDS = { owner: "owner", participant: "participant", viewer: "viewer" } as const;

export function PresenceBar(props: { presence: Presence | null }) {
  const presence = props.presence;
  // Alone in your own conversation there is nothing to show.
  if (!presence || presence.people.length < 2) return null;
  const typing = presence.people.filter((p) => p.typing && p.userId !== presence.you.userId);
  return (
    <div className="presence-bar small" data-testid="presence" aria-label="People here">
      <span className="muted">Here now:</span>
      <ul>
        {presence.people.map((p) => (
          <li
            key={p.userId}
            data-testid="presence-person"
            data-typing={p.typing}
            title={ROLE_WORDS[p.role]}
          >
            {p.userId === presence.you.userId ? "You" : p.name}
            <span className="muted"> · {ROLE_WORDS[p.role]}</span>
          </li>
        ))}
      </ul>
      {typing.length > 0 && (
        <span role="status" className="muted" data-testid="typing">
          {typing.map((p) => p.name).join(", ")} {typing.length === 1 ? "is" : "are"} typing…
        </span>
      )}
    </div>
  );
}
