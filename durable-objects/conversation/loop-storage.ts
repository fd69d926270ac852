// The loop's durable memory kept in the DO's SQLite: tool-call records and step checkpoints.
import { z } from "zod";
import type { LoopState, ToolCallLog, ToolCallRecord } from "../loop/types";
import type { NeutralMessage } from "../providers/types";
import type { ConversationStore, StoredToolCall } from "./store";

export function toolCallLog(store: ConversationStore): ToolCallLog {
  const toRecord = (c: StoredToolCall | null): ToolCallRecord | null =>
    c ? (c as ToolCallRecord) : null;
  return {
    findDone: (key) => toRecord(store.toolCall("key", key)),
    find: (id) => toRecord(store.toolCall("id", id)),
    start: (record, turnId, step) => store.startToolCall(record, turnId, step),
    finish: (id, status, result) => store.finishToolCall(id, status, result),
  };
}

/** A checkpoint row must stay well under the DO's 2 MB row limit: images are left out of it. */
export function checkpointable(state: LoopState): LoopState {
  const strip = (m: NeutralMessage): NeutralMessage => ({
    ...m,
    content: m.content.map((p) => {
      if (p.type === "image") return { type: "text", text: "[image omitted after a restart]" };
      if (p.type === "tool_result") {
        return {
          ...p,
          content: p.content.map((c) =>
            c.type === "image"
              ? { type: "text" as const, text: "[image omitted after a restart]" }
              : c,
          ),
        };
      }
      return p;
    }),
  });
  return { ...state, messages: state.messages.map(strip) };
}

// Checkpoints are our own rows, but they cross a restart: check their shape before trusting them.
export const LoopStateSchema = z
  .object({
    step: z.number().int().min(0),
    messages: z.array(
      z.object({
        role: z.enum(["user", "assistant", "tool"]),
        content: z.array(z.object({ type: z.string() }).passthrough()),
      }),
    ),
    text: z.string(),
    reasoning: z.string(),
    toolParts: z.array(z.object({ type: z.literal("tool_call") }).passthrough()),
    artifactParts: z.array(z.object({ type: z.literal("artifact") }).passthrough()),
    graphs: z.array(z.unknown()),
    noProgressSteps: z.number(),
    formatterRepairs: z.number(),
    final: z.array(z.unknown()).optional(),
  })
  .passthrough();
