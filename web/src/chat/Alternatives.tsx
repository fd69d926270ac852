// ‹ 2/3 ›: the versions of a message (edits of a question, answers made again), each in its own
// branch of the conversation; the arrows open the previous or next one.
import type { MessageAlternatives } from "../../../durable-objects/protocol/branches";

export function Alternatives(props: {
  versions: MessageAlternatives;
  onOpen: (conversationId: string) => void;
}) {
  const { conversations, current } = props.versions;
  const open = (index: number) => {
    const target = conversations[index];
    if (target) props.onOpen(target.id);
  };
  return (
    <div role="group" className="alternatives small" aria-label="Versions of this message">
      <button
        type="button"
        className="link"
        aria-label="Previous version"
        disabled={current === 0}
        onClick={() => open(current - 1)}
      >
        ‹
      </button>
      <span data-testid="version-position">
        {current + 1}/{conversations.length}
      </span>
      <button
        type="button"
        className="link"
        aria-label="Next version"
        disabled={current >= conversations.length - 1}
        onClick={() => open(current + 1)}
      >
        ›
      </button>
    </div>
  );
}
