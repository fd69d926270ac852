// The `find_tools` meta-tool, offered when a step cannot offer every tool: the model searches the
// whole catalog by what it needs, and the tools found are offered from the next step on
// (deferred tools). It runs inside the loop, never on an MCP server.
import { z } from "zod";
import type { ToolDefinition } from "../providers/types";
import { addToolPart, updateToolPart } from "./shown-content";
import { rankTools } from "./tool-selection";
import type { CallAnswer, LoopDeps, LoopState, PlannedToolCall } from "./types";

export const FIND_TOOLS = "find_tools";
const DEFAULT_LIMIT = 8;

export const findToolsTool: ToolDefinition = {
  name: FIND_TOOLS,
  description:
    "Search every available tool, not only the ones offered now, by what you need (words about the task or a tool's name). The tools found are offered to you from the next step on.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "What the tool should do, or its name." },
      limit: { type: "integer", minimum: 1, maximum: 20, description: "How many tools (8)." },
    },
    required: ["query"],
  },
};

const FindToolsArgs = z.object({
  query: z.string().min(1),
  limit: z.coerce.number().int().min(1).max(20).optional(),
});

/** The answer to a find_tools call, and the names of the tools it loads. */
export function answerFindTools(
  call: PlannedToolCall,
  catalog: ToolDefinition[],
): { answer: CallAnswer; loaded: string[]; summary: string } {
  const args = FindToolsArgs.safeParse(call.arguments);
  const reply = (text: string, isError: boolean): CallAnswer => ({
    part: {
      type: "tool_result",
      callId: call.id,
      name: FIND_TOOLS,
      isError,
      content: [{ type: "text", text }],
    },
    fresh: !isError,
  });
  if (!args.success)
    return {
      answer: reply(
        `find_tools needs {"query": "<what the tool should do>"}: ${z.prettifyError(args.error)}`,
        true,
      ),
      loaded: [],
      summary: "invalid arguments",
    };
  const { query, limit = DEFAULT_LIMIT } = args.data;
  const exact = catalog.filter((t) => t.name.toLowerCase() === query.trim().toLowerCase());
  const found = [
    ...exact,
    ...rankTools(query, catalog, true).filter((t) => !exact.includes(t)),
  ].slice(0, limit);
  const lines = found.map((t) => `- ${t.name}: ${t.description}`);
  if (found.length === 0)
    return {
      answer: reply(`No tool matches "${query}". Try other words.`, false),
      loaded: [],
      summary: "no tool found",
    };
  return {
    answer: reply(
      `These tools are loaded and can be called from your next step:\n${lines.join("\n")}`,
      false,
    ),
    loaded: found.map((t) => t.name),
    summary: `loaded ${found.map((t) => t.name).join(", ")}`,
  };
}

/**
 * Answers the step's find_tools calls (before its other calls run) and loads what they found;
 * each shows in the timeline like any call.
 */
export function runFindTools(
  deps: Pick<LoopDeps, "emit" | "checkpoint">,
  messageId: string,
  state: LoopState,
  catalog: ToolDefinition[],
): void {
  const pending = state.pending;
  if (!pending) return;
  for (const call of pending.calls) {
    if (call.name !== FIND_TOOLS || pending.answers[call.id]) continue;
    const { answer, loaded, summary } = answerFindTools(call, catalog);
    const shown = { callId: call.id, server: "loop", tool: FIND_TOOLS, arguments: call.arguments };
    deps.emit({ type: "tool_call", messageId, step: state.step, ...shown });
    addToolPart(state, { type: "tool_call", ...shown, status: "started" });
    const failed = answer.part.isError === true;
    updateToolPart(state, call.id, { status: failed ? "failed" : "done", summary });
    deps.emit({ type: "tool_result", messageId, callId: call.id, isError: failed, summary });
    state.loadedTools = [...new Set([...(state.loadedTools ?? []), ...loaded])];
    pending.answers[call.id] = answer;
  }
  deps.checkpoint(state);
}
