// An artifact for tests, with whatever fields a test cares about changed.
import type { Artifact } from "../../../durable-objects/protocol/rest";

export function artifact(over: Partial<Artifact> = {}): Artifact {
  return {
    id: "a1",
    conversationId: "c1",
    messageId: "m1",
    type: "text/plain",
    title: "Notes",
    language: null,
    contentType: "text/plain",
    size: 5,
    pinned: false,
    position: 0,
    metadata: {},
    createdAt: 1,
    updatedAt: 1,
    content: "hello",
    ...over,
  };
}
