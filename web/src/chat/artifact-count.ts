// How many artifacts the header's "Artifacts (n)" counts among the messages: answers' artifacts
// and questions' attached files, less those deleted since (their parts stay, marked).
import type { MessagePart } from "../../../durable-objects/protocol/messages";

export const artifactsShown = (messages: readonly { content: readonly MessagePart[] }[]): number =>
  messages.reduce(
    (n, m) =>
      n +
      m.content.filter((p) => (p.type === "artifact" || p.type === "attachment") && !p.deleted)
        .length,
    0,
  );
