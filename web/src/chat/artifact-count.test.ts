// The header counts the artifacts that are there: one deleted since, an attached file too, is not.
import { expect, it } from "vitest";
import { applyEvents, emptyTranscript } from "../../../durable-objects/protocol/transcript";
import type { NewServerEvent, ServerEvent } from "../../../durable-objects/protocol/wire";
import { artifactsShown } from "./artifact-count";

it("leaves out an artifact and an attached file deleted since their messages", () => {
  const file = {
    type: "attachment" as const,
    contentType: "text/csv",
    size: 3,
    kind: "table" as const,
  };
  const deleted = (artifactId: string, title: string): NewServerEvent => ({
    type: "artifact_changed",
    artifactId,
    change: "deleted",
    title,
    pinned: false,
    updatedAt: 1,
  });
  const events: NewServerEvent[] = [
    {
      type: "user_message",
      message: {
        id: "u1",
        role: "user",
        content: [
          { type: "text", text: "plot these" },
          { ...file, artifactId: "f1", name: "a.csv" },
          { ...file, artifactId: "f2", name: "b.csv" },
        ],
        status: "complete",
        seq: 1,
        createdAt: 0,
      },
    },
    {
      type: "turn_started",
      turnId: "t1",
      messageId: "a1",
      order: 2,
      userMessageId: "u1",
      provider: "anthropic",
      model: "m",
    },
    {
      type: "message_completed",
      messageId: "a1",
      status: "complete",
      content: [
        { type: "artifact", artifactId: "x1", artifactType: "image/png", title: "Chart" },
        { type: "artifact", artifactId: "x2", artifactType: "text/markdown", title: "Notes" },
      ],
    },
  ];
  const fold = (more: NewServerEvent[]) =>
    applyEvents(
      emptyTranscript(),
      [...events, ...more].map((e, i) => ({ ...e, seq: i + 1, at: 0 }) as ServerEvent),
    ).messages;
  expect(artifactsShown(fold([]))).toBe(4);
  expect(artifactsShown(fold([deleted("x1", "Chart"), deleted("f2", "b.csv")]))).toBe(2);
});
