// The turn's answer: the response_formatter's output turned into text and artifacts, asked for
// explicitly when the loop ended without it (then plain text), and the knowledge graphs the
// tools returned merged into one artifact.
import type { MessagePart } from "../protocol/messages";
import type { ToolDefinition } from "../providers/types";
import { withAnswerEndNote } from "./answer-end";
import { KNOWLEDGE_GRAPH, normalizeArtifactType } from "./artifact-types";
import { withBudgetNote } from "./budgets";
import { checkFormatterOutput, FORMATTER_TOOL, type FormatterOutput } from "./formatter";
import { mergeKnowledgeGraphs } from "./knowledge-graph";
import { cancelled, failed } from "./loop-outcomes";
import { assistantParts, streamStep } from "./model-step";
import { finalContent } from "./shown-content";
import type { LoopDeps, LoopInput, LoopOutcome, LoopState } from "./types";

export const MAX_FORMATTER_REPAIRS = 2;

/** The loop ended without an answer: ask for the formatter explicitly, then fall back to plain text. */
export async function finish(
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
      const answer = withBudgetNote(state, await formatted(deps, state, check.value));
      // A formatter call cut off at max tokens is the answer as far as it went, and says so.
      state.final = call?.cut
        ? withAnswerEndNote(deps, state, answer, { reason: "length" }, input.maxTokens)
        : answer;
      deps.checkpoint(state);
      return { content: await withGraph(deps, state, state.final), status: "complete" };
    }
    state.formatterRepairs += 1;
    if (!call) break;
    state.messages = [
      ...state.messages,
      { role: "assistant", content: assistantParts({ ...result, text: "", calls: [call] }) },
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
  // No valid formatter output: the text the model streamed, already shown, is the answer (and
  // when there is none, the answer says so).
  state.final = withBudgetNote(
    state,
    withAnswerEndNote(deps, state, finalContent(state), {}, input.maxTokens),
  );
  deps.checkpoint(state);
  return { content: await withGraph(deps, state, state.final), status: "complete" };
}

export async function formatted(
  deps: LoopDeps,
  state: LoopState,
  output: FormatterOutput,
): Promise<MessagePart[]> {
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
  return finalContent(state, answer, output.thinking);
}

/** The knowledge graphs the turn's tools returned, merged into one artifact at the end. */
export async function withGraph(
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
