// The thinking loop: the model reasons in steps, calls MCP tools, and hands its answer to the
// response_formatter. Every step is checkpointed before the next begins; see README.md.
import type { MessagePart } from "../protocol/messages";
import type { NeutralMessage, NeutralPart, ToolDefinition } from "../providers/types";
import { KNOWLEDGE_GRAPH, normalizeArtifactType } from "./artifact-types";
import {
  checkFormatterOutput,
  FORMATTER_TOOL,
  formatterTool,
  type FormatterOutput,
} from "./formatter";
import { mergeKnowledgeGraphs } from "./knowledge-graph";
import { callKey } from "./call-key";
import { processToolResult } from "./tool-results";
import type { LoopDeps, LoopInput, LoopOutcome, LoopState, ToolCallRecord } from "./types";

/** At most this many tool calls run at once: a DO has 6 outbound connections, MCP streams use some. */
export const TOOL_CONCURRENCY = 4;
const MAX_FORMATTER_REPAIRS = 2;
const NO_PROGRESS_LIMIT = 2;

type ModelToolCall = {
  id: string;
  name: string;
  arguments: unknown;
  argumentsError?: string;
  /** Gemini's thought signature: the call goes back into the history with it. */
  signature?: string;
};
interface StepResult {
  text: string;
  reasoning: string;
  calls: ModelToolCall[];
  error?: { code: string; message: string };
}

export function initialState(history: NeutralMessage[]): LoopState {
  return {
    step: 0,
    messages: history,
    text: "",
    reasoning: "",
    toolParts: [],
    artifactParts: [],
    graphs: [],
    noProgressSteps: 0,
    formatterRepairs: 0,
  };
}

export async function runThinkingLoop(
  deps: LoopDeps,
  input: LoopInput,
  resumed?: LoopState,
): Promise<LoopOutcome> {
  const state = resumed ?? initialState(input.history);
  if (state.final) return { content: state.final, status: "complete" };
  const { tools: catalog, warnings: failures, signIns = [] } = await deps.tools.catalog();
  if (failures.length > 0)
    deps.emit({ type: "notice", level: "warning", message: failures.join(" ") });
  // One notice per server to sign in to, so the timeline can offer its Connect button.
  for (const s of signIns)
    deps.emit({
      type: "notice",
      level: "warning",
      message: s.message,
      action: { kind: "mcp_sign_in", serverId: s.serverId, serverName: s.serverName },
    });
  const warnings = [...failures, ...signIns.map((s) => s.message)];
  const toolDefs: ToolDefinition[] = [
    ...catalog.map((t) => ({
      name: deps.toolNames.toSafe(t.server, t.tool),
      description: t.description,
      inputSchema: t.inputSchema,
    })),
    formatterTool,
  ];
  const system =
    warnings.length > 0
      ? `${input.system}\n\nUnavailable right now: ${warnings.join(" ")}`
      : input.system;

  while (state.step < input.maxSteps) {
    if (input.signal.aborted) return cancelled(state);
    state.step += 1;
    deps.emit({
      type: "step_started",
      turnId: input.turnId,
      step: state.step,
      maxSteps: input.maxSteps,
    });
    const result = await streamStep(deps, input, state, system, toolDefs, "auto");
    if (result.error)
      return result.error.code === "aborted" ? cancelled(state) : failed(state, result.error);
    const assistant: NeutralPart[] = [
      ...(result.text ? [{ type: "text" as const, text: result.text }] : []),
      ...result.calls.map((c) => ({
        type: "tool_call" as const,
        id: c.id,
        name: c.name,
        arguments: c.arguments,
        ...(c.signature && { signature: c.signature }),
      })),
    ];
    if (result.calls.length === 0) {
      // A model that answers without tools is done: its text is the answer.
      state.final = finalContent(state, [{ type: "text", text: result.text }]);
      deps.checkpoint(state);
      return { content: await withGraph(deps, state, state.final), status: "complete" };
    }
    state.messages = [...state.messages, { role: "assistant", content: assistant }];

    const formatterCall = result.calls.find((c) => c.name === FORMATTER_TOOL);
    if (formatterCall) {
      const check = checkFormatterOutput(formatterCall.arguments);
      if (check.ok) {
        state.final = await formatted(deps, state, check.value);
        deps.checkpoint(state);
        return { content: await withGraph(deps, state, state.final), status: "complete" };
      }
      state.formatterRepairs += 1;
    }
    const results = await runToolCalls(deps, input, state, result.calls);
    state.messages = [...state.messages, { role: "tool", content: results.parts }];
    state.noProgressSteps = results.progress ? 0 : state.noProgressSteps + 1;
    deps.checkpoint(state);
    if (
      state.noProgressSteps >= NO_PROGRESS_LIMIT ||
      state.formatterRepairs > MAX_FORMATTER_REPAIRS
    )
      break;
  }
  return finish(deps, input, state, system, toolDefs);
}

/** The loop ended without an answer: ask for the formatter explicitly, then fall back to plain text. */
async function finish(
  deps: LoopDeps,
  input: LoopInput,
  state: LoopState,
  system: string,
  toolDefs: ToolDefinition[],
): Promise<LoopOutcome> {
  while (state.formatterRepairs <= MAX_FORMATTER_REPAIRS) {
    if (input.signal.aborted) return cancelled(state);
    const result = await streamStep(deps, input, state, system, toolDefs, { name: FORMATTER_TOOL });
    if (result.error)
      return result.error.code === "aborted" ? cancelled(state) : failed(state, result.error);
    const call = result.calls.find((c) => c.name === FORMATTER_TOOL);
    const check = call ? checkFormatterOutput(call.arguments) : null;
    if (check?.ok) {
      state.final = await formatted(deps, state, check.value);
      deps.checkpoint(state);
      return { content: await withGraph(deps, state, state.final), status: "complete" };
    }
    state.formatterRepairs += 1;
    if (!call) break;
    state.messages = [
      ...state.messages,
      {
        role: "assistant",
        content: [{ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            callId: call.id,
            name: FORMATTER_TOOL,
            isError: true,
            content: [{ type: "text", text: check && !check.ok ? check.errors : "invalid" }],
          },
        ],
      },
    ];
    deps.checkpoint(state);
  }
  state.final = finalContent(state, state.text ? [{ type: "text", text: state.text }] : []);
  deps.checkpoint(state);
  return { content: await withGraph(deps, state, state.final), status: "complete" };
}

async function streamStep(
  deps: LoopDeps,
  input: LoopInput,
  state: LoopState,
  system: string,
  tools: ToolDefinition[],
  toolChoice: "auto" | { name: string },
): Promise<StepResult> {
  const out: StepResult = { text: "", reasoning: "", calls: [] };
  deps.onModelCall?.();
  for await (const event of deps.stream(deps.provider, {
    model: input.model,
    system,
    messages: state.messages,
    tools,
    toolChoice,
    maxTokens: input.maxTokens,
    ...(input.temperature !== undefined && { temperature: input.temperature }),
    signal: input.signal,
  })) {
    switch (event.type) {
      case "text_delta":
        out.text += event.text;
        state.text += event.text;
        deps.emit({ type: "text_delta", messageId: input.messageId, delta: event.text });
        break;
      case "reasoning_delta":
        out.reasoning += event.text;
        state.reasoning += event.text;
        deps.emit({ type: "reasoning_delta", messageId: input.messageId, delta: event.text });
        break;
      case "tool_call":
        out.calls.push({
          id: event.id,
          name: event.name,
          arguments: event.arguments,
          ...(event.argumentsError && { argumentsError: event.argumentsError }),
          ...(event.signature && { signature: event.signature }),
        });
        break;
      case "usage":
        deps.recordUsage({
          inputTokens: event.inputTokens,
          outputTokens: event.outputTokens,
          cachedTokens: event.cachedTokens ?? 0,
        });
        break;
      case "error":
        if (event.error.code === "invalid_tool_arguments") break; // handled per call below
        out.error = { code: event.error.code, message: event.error.message };
        return out;
      case "finish":
        break;
    }
  }
  return out;
}

/** Runs a step's calls (repeats reuse earlier results), emitting events; returns tool results for the model. */
async function runToolCalls(
  deps: LoopDeps,
  input: LoopInput,
  state: LoopState,
  calls: ModelToolCall[],
) {
  const parts: NeutralPart[] = [];
  let progress = false;
  const queue = [...calls.entries()];
  const results = new Array<NeutralPart>(calls.length);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [index, call] = next;
      const r = await runOne(deps, input, state, call);
      if (r.fresh) progress = true;
      results[index] = r.part;
    }
  };
  await Promise.all(Array.from({ length: Math.min(TOOL_CONCURRENCY, calls.length) }, worker));
  parts.push(...results);
  return { parts, progress };
}

async function runOne(
  deps: LoopDeps,
  input: LoopInput,
  state: LoopState,
  call: ModelToolCall,
): Promise<{ part: NeutralPart; fresh: boolean }> {
  const reply = (content: string, isError: boolean): NeutralPart => ({
    type: "tool_result",
    callId: call.id,
    name: call.name,
    isError,
    content: [{ type: "text", text: content }],
  });
  if (call.name === FORMATTER_TOOL) {
    const check = checkFormatterOutput(call.arguments);
    return { part: reply(check.ok ? "ok" : check.errors, !check.ok), fresh: false };
  }
  const target = deps.toolNames.fromSafe(call.name);
  const args =
    call.arguments && typeof call.arguments === "object" && !Array.isArray(call.arguments)
      ? (call.arguments as Record<string, unknown>)
      : null;
  const server = target?.server ?? "unknown";
  const tool = target?.tool ?? call.name;
  deps.emit({
    type: "tool_call",
    messageId: input.messageId,
    step: state.step,
    callId: call.id,
    server,
    tool,
    arguments: call.arguments,
  });
  const part = {
    type: "tool_call" as const,
    callId: call.id,
    server,
    tool,
    arguments: call.arguments,
    status: "started" as const,
  };
  state.toolParts.push(part);
  const finishPart = (status: "done" | "failed", summary: string) => {
    state.toolParts = state.toolParts.map((p) =>
      p.callId === call.id ? { ...p, status, summary } : p,
    );
    deps.emit({
      type: "tool_result",
      messageId: input.messageId,
      callId: call.id,
      isError: status === "failed",
      summary,
    });
  };
  if (!target) {
    finishPart("failed", `unknown tool ${call.name}`);
    return {
      part: reply(
        `There is no tool named ${call.name}. Use one of the tools you were given.`,
        true,
      ),
      fresh: false,
    };
  }
  if (!args) {
    finishPart("failed", "arguments were not a JSON object");
    return {
      part: reply(
        "The arguments were not valid JSON for an object. Call the tool again with a JSON object.",
        true,
      ),
      fresh: false,
    };
  }
  const key = callKey(server, tool, args);
  const earlier = deps.calls.findDone(key);
  if (earlier?.result) {
    finishPart(
      earlier.status === "failed" ? "failed" : "done",
      `reused the earlier result: ${earlier.result.summary}`,
    );
    return {
      part: {
        type: "tool_result",
        callId: call.id,
        name: call.name,
        isError: earlier.result.isError,
        content: [
          {
            type: "text",
            text: "You already made this exact call in this conversation; its result was:",
          },
          ...earlier.result.forModel,
        ],
      },
      fresh: false,
    };
  }
  deps.calls.start({ id: call.id, key, server, tool, arguments: args }, input.turnId, state.step);
  const outcome = await deps.tools.call(server, tool, args, {
    signal: input.signal,
    onProgress: (p) =>
      deps.emit({
        type: "tool_progress",
        callId: call.id,
        progress: p.progress,
        ...(p.total !== undefined && { total: p.total }),
        ...(p.message && { message: p.message }),
      }),
    onLog: (l) => deps.emit({ type: "tool_log", server, level: l.level, data: l.data }),
  });
  if (!outcome.ok) {
    const result: ToolCallRecord["result"] = {
      forModel: [{ type: "text", text: `The tool could not be called: ${outcome.error.message}` }],
      summary: outcome.error.message,
      isError: true,
    };
    deps.calls.finish(call.id, "error", result);
    finishPart("failed", outcome.error.message);
    return {
      part: {
        type: "tool_result",
        callId: call.id,
        name: call.name,
        isError: true,
        content: result!.forModel,
      },
      fresh: true,
    };
  }
  const processed = processToolResult(outcome.result, tool);
  for (const draft of processed.artifacts) {
    const ref = await deps.saveArtifact(draft, {
      server,
      tool,
      arguments: args,
      step: state.step,
      origin: "tool",
    });
    state.artifactParts.push({
      type: "artifact",
      artifactId: ref.id,
      artifactType: ref.type,
      title: ref.title,
    });
  }
  state.graphs.push(...processed.graphs);
  deps.calls.finish(call.id, processed.isError ? "failed" : "done", {
    forModel: processed.forModel,
    summary: processed.summary,
    isError: processed.isError,
  });
  finishPart(processed.isError ? "failed" : "done", processed.summary);
  return {
    part: {
      type: "tool_result",
      callId: call.id,
      name: call.name,
      isError: processed.isError,
      content: processed.forModel,
    },
    fresh: true,
  };
}

async function formatted(
  deps: LoopDeps,
  state: LoopState,
  output: FormatterOutput,
): Promise<MessagePart[]> {
  if (output.thinking)
    state.reasoning = state.reasoning
      ? `${state.reasoning}\n\n${output.thinking}`
      : output.thinking;
  const answer: MessagePart[] = [];
  for (const item of output.conversation) {
    if (item.type === "text") {
      answer.push({ type: "text", text: item.content });
      continue;
    }
    // The item's own content is a short description: the artifact's button stands for it.
    const ref = await deps.saveArtifact(
      {
        type: normalizeArtifactType(item.artifact.type),
        title: item.artifact.title,
        content: item.artifact.content,
        ...(item.artifact.language && { language: item.artifact.language }),
        ...(item.content && { metadata: { description: item.content } }),
      },
      { step: state.step, origin: "formatter" },
    );
    answer.push({ type: "artifact", artifactId: ref.id, artifactType: ref.type, title: ref.title });
  }
  return finalContent(state, answer);
}

function finalContent(state: LoopState, answer: MessagePart[]): MessagePart[] {
  return [
    ...(state.reasoning ? [{ type: "reasoning" as const, text: state.reasoning }] : []),
    ...state.toolParts,
    ...answer.filter((p) => p.type !== "text" || p.text.length > 0),
    ...state.artifactParts,
  ];
}

/** The knowledge graphs the turn's tools returned, merged into one artifact at the end. */
async function withGraph(
  deps: LoopDeps,
  state: LoopState,
  content: MessagePart[],
): Promise<MessagePart[]> {
  if (state.graphs.length === 0) return content;
  const graph = mergeKnowledgeGraphs(state.graphs);
  state.graphs = [];
  const ref = await deps.saveArtifact(
    { type: KNOWLEDGE_GRAPH, title: "Knowledge graph", content: JSON.stringify(graph, null, 2) },
    { step: state.step, origin: "tool" },
  );
  const part: MessagePart = {
    type: "artifact",
    artifactId: ref.id,
    artifactType: ref.type,
    title: ref.title,
  };
  state.final = [...content, part];
  deps.checkpoint(state);
  return state.final;
}

function cancelled(state: LoopState): LoopOutcome {
  return {
    content: finalContent(state, state.text ? [{ type: "text", text: state.text }] : []),
    status: "cancelled",
  };
}

function failed(state: LoopState, error: { code: string; message: string }): LoopOutcome {
  return {
    content: finalContent(state, state.text ? [{ type: "text", text: state.text }] : []),
    status: "failed",
    error,
  };
}
