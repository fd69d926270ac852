// The thinking loop: the model reasons in steps, calls MCP tools, and hands its answer to the
// response_formatter. Every step is checkpointed before the next begins; see README.md.
import type { NeutralMessage, ToolDefinition } from "../providers/types";
import {
  budgetStop,
  firstCallEstimate,
  firstCallOverBudget,
  markStepStart,
  stepCapStop,
  turnClock,
} from "./budgets";
import { withAnswerEndNote } from "./answer-end";
import { finish, formatted, MAX_FORMATTER_REPAIRS, withGraph } from "./final-answer";
import { checkFormatterOutput, FORMATTER_TOOL, formatterTool } from "./formatter";
import { omittedNote } from "./context-fit";
import { findToolsTool, runFindTools } from "./find-tools";
import { cancelled, failed, stopFor } from "./loop-outcomes";
import { assistantParts, streamStep } from "./model-step";
import { runToolCalls } from "./run-tool-calls";
import { recordStepProgress } from "./step-progress";
import { finalContent } from "./shown-content";
import { conversationQuery, DEFAULT_MAX_TOOLS_PER_STEP, selectTools } from "./tool-selection";
import type { CatalogTool, LoopDeps, LoopInput, LoopOutcome, LoopState } from "./types";
import type { ToolPolicy } from "../protocol/tool-policy";
import { StepTimer } from "./step-timings";

export { TOOL_CONCURRENCY } from "./run-tool-calls";
const NO_PROGRESS_LIMIT = 2;

export function initialState(history: NeutralMessage[]): LoopState {
  return {
    step: 0,
    messages: history,
    shown: [],
    artifactParts: [],
    graphs: [],
    noProgressSteps: 0,
    formatterRepairs: 0,
  };
}

/** A server skipped for its failures that answered again: the user saw it skipped, now it is back. */
function tellServersBack(deps: LoopDeps): void {
  for (const server of deps.tools.backAgain?.() ?? [])
    deps.emit({
      type: "notice",
      level: "info",
      message: `The MCP server '${server}' answers again; it is no longer skipped.`,
    });
}

export async function runThinkingLoop(
  deps: LoopDeps,
  input: LoopInput,
  resumed?: LoopState,
): Promise<LoopOutcome> {
  const state = resumed ?? {
    ...initialState(input.history),
    ...(input.usedBefore && { usage: input.usedBefore }),
  };
  // Every phase of a step is timed (step-timings.ts); a step's timings go out when it ends.
  const timer = deps.stepTimer ?? new StepTimer(deps.now ? { now: deps.now } : {});
  const timed = timer.instrument(deps, input, state, resumed !== undefined);
  const ran = await runLoop(timed, input, state, resumed !== undefined);
  const outcome =
    ran.status === "complete" && state.cutShort ? { ...ran, cutShort: state.cutShort } : ran;
  timer.turnEnded(timed, input, outcome);
  return outcome;
}

async function runLoop(
  deps: LoopDeps,
  input: LoopInput,
  state: LoopState,
  resumed: boolean,
): Promise<LoopOutcome> {
  if (state.final) return { content: state.final, status: "complete" };
  const {
    tools: catalog,
    known = [],
    warnings: failures,
    signIns = [],
  } = await deps.tools.catalog();
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
  tellServersBack(deps);
  const warnings = [...failures, ...signIns.map((s) => s.message)];
  let policies = new Map<string, ToolPolicy>();
  const policyOf = (server: string, tool: string) =>
    policies.get(`${server}\u0000${tool}`) ?? "allow";
  let schemas = new Map<string, Record<string, unknown>>();
  const schemaOf = (server: string, tool: string) => schemas.get(`${server}\u0000${tool}`);
  let catalogDefs: ToolDefinition[] = [];
  const useCatalog = (tools: CatalogTool[], known: CatalogTool[] = []) => {
    // A known tool's call is routed, checked and approved like an offered one's.
    const all = [...tools, ...known];
    policies = new Map(
      all.map((t) => [`${t.server}\u0000${t.tool}`, deps.approvals?.policy(t) ?? "allow"]),
    );
    schemas = new Map(all.map((t) => [`${t.server}\u0000${t.tool}`, t.inputSchema]));
    // A tool the user never allows is not offered at all.
    catalogDefs = tools
      .filter((t) => policyOf(t.server, t.tool) !== "never")
      .map((t) => ({
        name: deps.toolNames.toSafe(t.server, t.tool),
        description: t.description,
        inputSchema: t.inputSchema,
      }));
  };
  useCatalog(catalog, known);
  /** The step's tools: all, or above the cap the most relevant ones and find_tools. */
  let lastOffered: ToolDefinition[] | undefined;
  const toolsForStep = (): ToolDefinition[] => {
    const cap = input.maxToolsPerStep ?? DEFAULT_MAX_TOOLS_PER_STEP;
    const query = conversationQuery(state.messages);
    const selection = selectTools(catalogDefs, query, cap, state.loadedTools);
    if (!selection.reason) return (lastOffered = [...selection.offered, formatterTool]);
    deps.emit({
      type: "notice",
      level: "info",
      message: `${selection.reason} Offered: ${selection.offered.map((t) => t.name).join(", ")}.`,
    });
    return (lastOffered = [...selection.offered, findToolsTool, formatterTool]);
  };
  const prompt =
    warnings.length > 0
      ? `${input.system}\n\nUnavailable right now: ${warnings.join(" ")}`
      : input.system;
  // The history is fitted to the model's window once the prompt and the tools are known (a
  // resumed turn's messages were fitted when it began). A step offers at most the cap's worth
  // of tools, so that many are counted.
  const toolsCounted = [
    ...catalogDefs.slice(0, input.maxToolsPerStep ?? DEFAULT_MAX_TOOLS_PER_STEP),
    findToolsTool,
    formatterTool,
  ];
  // A resumed turn whose checkpoint kept only the turn's own messages gets its history assembled
  // and fitted again from the conversation, as when it began (loop-storage.ts).
  const assemble = !resumed || state.historyLeftOut === true;
  const fitted =
    assemble && deps.fitContext ? deps.fitContext(input.history, prompt, toolsCounted) : null;
  if (assemble) {
    const history = fitted?.messages ?? input.history;
    state.messages = resumed ? [...history, ...state.messages] : history;
    state.turnFrom = history.length;
    delete state.historyLeftOut;
    if (fitted?.omittedMessages) state.omittedMessages = fitted.omittedMessages;
    else delete state.omittedMessages;
  }
  // A resumed turn's messages were fitted when it began: its prompt still names what was left out.
  const system =
    fitted?.system ??
    (state.omittedMessages ? prompt + omittedNote(state.omittedMessages) : prompt);

  // Before the first step, budgets project from the first call's estimated size.
  const firstCall = state.step === 0 ? firstCallEstimate(deps, input.model, fitted) : undefined;
  const tooSmall = firstCallOverBudget(input.budgets, firstCall);
  if (tooSmall) return failed(state, tooSmall);
  // A step checkpointed between its model call and its tool results continues at the calls.
  let resumedStep = state.pending !== undefined;
  const clock = turnClock(state, deps.now ?? Date.now);
  for (;;) {
    if (!state.pending) {
      if (state.step >= input.maxSteps) {
        stopFor(deps, state, stepCapStop(input.maxSteps));
        break;
      }
      if (input.signal.aborted) return cancelled(state);
      clock.sync();
      const stop = budgetStop(input.budgets, state, firstCall);
      if (stop) {
        stopFor(deps, state, stop);
        break;
      }
      // A server whose tools changed during the turn (a call loaded more) is listed again, so
      // the model can use what it just added; the step shows the time as its "Listing tools".
      if (deps.tools.changed?.()) {
        const again = await deps.tools.catalog();
        useCatalog(again.tools, again.known);
        // What is new since the turn began (a server whose list could not be read again).
        if (again.warnings.length > 0)
          deps.emit({ type: "notice", level: "warning", message: again.warnings.join(" ") });
      }
      state.step += 1;
      markStepStart(state);
      deps.stepTimer?.stepStarted(state);
      deps.emit({
        type: "step_started",
        turnId: input.turnId,
        step: state.step,
        maxSteps: input.maxSteps,
      });
      const callStart = state.elapsedMs ?? 0;
      const result = await streamStep(deps, input, state, system, toolsForStep(), "auto");
      clock.sync();
      state.longestCallMs = Math.max(state.longestCallMs ?? 0, (state.elapsedMs ?? 0) - callStart);
      if (result.error)
        return result.error.code === "aborted" ? cancelled(state) : failed(state, result.error);
      // "Local first": the local model's answer is a draft; a cloud model writes the answer.
      if (!result.cut && !(deps.routing?.mayAnswer(state.step) ?? true)) {
        const toolCalls = result.calls.filter((c) => c.name !== FORMATTER_TOOL);
        if (toolCalls.length === 0) {
          if (result.text)
            state.messages = [
              ...state.messages,
              { role: "assistant", content: assistantParts({ ...result, calls: [] }) },
            ];
          deps.checkpoint(state);
          break;
        }
        result.calls = toolCalls;
      }
      if (result.calls.length === 0 || result.cut) {
        // A model that answers without tools is done: its text, already shown, is the answer
        // (with why it ended short, unless a guard cut it and said so).
        state.final = result.cut
          ? finalContent(state)
          : withAnswerEndNote(
              deps,
              state,
              finalContent(state),
              { reason: result.finish, detail: result.finishDetail },
              input.maxTokens,
            );
        deps.checkpoint(state);
        return { content: await withGraph(deps, state, state.final), status: "complete" };
      }
      state.messages = [...state.messages, { role: "assistant", content: assistantParts(result) }];
      const formatterCall = result.calls.find((c) => c.name === FORMATTER_TOOL);
      if (formatterCall) {
        const check = checkFormatterOutput(formatterCall.arguments);
        if (check.ok) {
          const answer = await formatted(deps, state, check.value);
          // A formatter call cut off at max tokens is the answer as far as it went, and says so.
          state.final = formatterCall.cut
            ? withAnswerEndNote(deps, state, answer, { reason: "length" }, input.maxTokens)
            : answer;
          deps.checkpoint(state);
          return { content: await withGraph(deps, state, state.final), status: "complete" };
        }
        state.formatterRepairs += 1;
      }
      state.pending = { calls: result.calls, answers: {} };
      deps.checkpoint(state);
      runFindTools(deps, input.messageId, state, catalogDefs);
    }
    const answers = await runToolCalls(
      deps,
      input,
      state,
      state.pending,
      policyOf,
      resumedStep,
      schemaOf,
    );
    resumedStep = false;
    tellServersBack(deps);
    if (!answers) {
      // A call waits for approval: the turn parks here and resumes from the checkpoint.
      clock.sync();
      deps.checkpoint(state);
      return { content: finalContent(state), status: "parked" };
    }
    state.messages = [...state.messages, { role: "tool", content: answers.map((a) => a.part) }];
    state.pending = undefined;
    state.noProgressSteps = recordStepProgress(state, answers) ? 0 : state.noProgressSteps + 1;
    // A model set aside for unusable calls: the next model starts afresh, not at the no-progress stop.
    const unusable = answers.flatMap((a) => (a.unusable ? [a.unusable] : []));
    if (deps.routing?.noteUnusableCalls(state.step, unusable)) state.noProgressSteps = 0;
    deps.checkpoint(state);
    deps.stepTimer?.stepEnded(deps, input);
    if (
      state.noProgressSteps >= NO_PROGRESS_LIMIT ||
      state.formatterRepairs > MAX_FORMATTER_REPAIRS
    )
      break;
  }
  // The final request offers what the last step did (history with calls needs their tools).
  return finish(deps, input, state, system, lastOffered ?? toolsForStep());
}
