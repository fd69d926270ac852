// Runs the tool calls of a step (independent calls in parallel, repeats answered from earlier
// results) and records each answer in the step's checkpoint as it arrives, so a turn resumed
// after a restart continues with the calls that have no answer yet and re-runs none.
import { checkToolArguments } from "./argument-check";
import { callKey } from "./call-key";
import { checkFormatterOutput, FORMATTER_TOOL } from "./formatter";
import { addToolPart, hasToolPart, shownToolPart, updateToolPart } from "./shown-content";
import { processToolResult } from "./tool-results";
import type { ToolPolicy } from "../protocol/tool-policy";
import type {
  ApprovalState,
  CallAnswer,
  LoopDeps,
  LoopInput,
  LoopState,
  PlannedToolCall,
  ToolCallRecord,
} from "./types";

/** At most this many tool calls run at once: a DO has 6 outbound connections, MCP streams use some. */
export const TOOL_CONCURRENCY = 4;

type Pending = NonNullable<LoopState["pending"]>;

/**
 * Answers every call of the pending step, in the order of the calls; null when a call waits for
 * the user's approval (the calls that may run have run, and their answers are checkpointed).
 */
export async function runToolCalls(
  deps: LoopDeps,
  input: LoopInput,
  state: LoopState,
  pending: Pending,
  policyOf: (server: string, tool: string) => ToolPolicy,
  /** The step comes from a checkpoint: the log may hold answers the checkpoint missed. */
  resumed: boolean,
  schemaOf: (server: string, tool: string) => Record<string, unknown> | undefined = () => undefined,
): Promise<CallAnswer[] | null> {
  const waiting: PlannedToolCall[] = [];
  const runAll = async (calls: PlannedToolCall[]) => {
    const queue = [...calls];
    const worker = async () => {
      for (let call = queue.shift(); call; call = queue.shift()) {
        const answer =
          (resumed ? answeredBeforeRestart(state, call, deps) : null) ??
          (await runOne(deps, input, state, call, policyOf, schemaOf));
        if (answer === "waiting") {
          waiting.push(call);
          continue;
        }
        pending.answers[call.id] = answer;
        deps.checkpoint(state);
      }
    };
    await Promise.all(Array.from({ length: Math.min(TOOL_CONCURRENCY, queue.length) }, worker));
  };
  await runAll(pending.calls.filter((c) => !pending.answers[c.id]));
  // An answer that came while the other calls ran is taken now rather than after a new run.
  for (;;) {
    const answered = waiting.filter(
      (c) => deps.approvals?.state(c.id, state.step).status === "decided",
    );
    if (answered.length === 0) break;
    waiting.splice(0, waiting.length, ...waiting.filter((c) => !answered.includes(c)));
    await runAll(answered);
  }
  if (waiting.length > 0) return null;
  return pending.calls.map((c) => pending.answers[c.id]!);
}

/**
 * A call the log already answered though the checkpoint has no answer for it: one cut off by a
 * restart, which recovery recorded as interrupted (and announced). It is not run again.
 */
function answeredBeforeRestart(
  state: LoopState,
  call: PlannedToolCall,
  deps: LoopDeps,
): CallAnswer | null {
  const record = deps.calls.find(call.id);
  if (!record?.result || record.status === "started") return null;
  const summary = record.result.summary;
  const status = record.status === "done" ? "done" : "failed";
  if (hasToolPart(state, call.id)) updateToolPart(state, call.id, { status, summary });
  else
    addToolPart(state, {
      type: "tool_call",
      callId: call.id,
      server: record.server,
      tool: record.tool,
      arguments: call.arguments,
      status,
      summary,
    });
  return {
    part: {
      type: "tool_result",
      callId: call.id,
      name: call.name,
      isError: record.result.isError,
      content: record.result.forModel,
    },
    fresh: true,
  };
}

async function runOne(
  deps: LoopDeps,
  input: LoopInput,
  state: LoopState,
  call: PlannedToolCall,
  policyOf: (server: string, tool: string) => ToolPolicy,
  schemaOf: (server: string, tool: string) => Record<string, unknown> | undefined,
): Promise<CallAnswer | "waiting"> {
  const reply = (content: string, isError: boolean): CallAnswer["part"] => ({
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
  const given =
    call.arguments && typeof call.arguments === "object" && !Array.isArray(call.arguments)
      ? (call.arguments as Record<string, unknown>)
      : null;
  // A call to a server skipped for its failures is answered at once as such: telling the model
  // to fix its arguments first would only cost it a step.
  const skippedServer = target ? deps.tools.skipped?.(target.server) : null;
  const schema =
    target && given && !skippedServer ? schemaOf(target.server, target.tool) : undefined;
  const checked = given && schema ? checkToolArguments(schema, given) : null;
  // The coerced arguments are the call's arguments from here on: shown, keyed and sent.
  const args = checked?.ok ? checked.value : given;
  const server = target?.server ?? "unknown";
  const tool = target?.tool ?? call.name;
  const policy = target && args ? policyOf(server, tool) : "allow";
  const approval: ApprovalState =
    policy === "ask" && deps.approvals
      ? deps.approvals.state(call.id, state.step)
      : { status: "none" };
  // A call that asked was shown when it asked; its answer only continues it. So was a call whose
  // server went away while it waited: its tool is unknown now, but it is the same call.
  const shownBefore = shownToolPart(state, call.id);
  if (approval.status === "none" && !shownBefore) {
    deps.emit({
      type: "tool_call",
      messageId: input.messageId,
      step: state.step,
      callId: call.id,
      server,
      tool,
      arguments: call.arguments,
    });
    addToolPart(state, {
      type: "tool_call",
      callId: call.id,
      server,
      tool,
      arguments: call.arguments,
      status: "started",
    });
  }
  const finishPart = (status: "done" | "failed", summary: string) => {
    updateToolPart(state, call.id, { status, summary });
    deps.emit({
      type: "tool_result",
      messageId: input.messageId,
      callId: call.id,
      isError: status === "failed",
      summary,
    });
  };
  if (call.cut) {
    finishPart("failed", "cut off at the answer's max tokens: not run");
    return {
      part: reply(
        `Your output reached its max tokens while writing this call, so its arguments are incomplete and it was not run. Call ${call.name} again with shorter arguments (split long content over several calls).`,
        true,
      ),
      fresh: false,
    };
  }
  if (!target && shownBefore) {
    const { server: gone, tool: named } = shownBefore;
    finishPart("failed", `${gone} is no longer available`);
    return {
      part: reply(
        `The tool ${named} did not run: its server '${gone}' was removed from this conversation's servers (or blocked) while the call waited.`,
        true,
      ),
      fresh: false,
    };
  }
  if (!target) {
    finishPart("failed", `unknown tool ${call.name}`);
    return {
      part: reply(
        `There is no tool named ${call.name}. Use one of the tools you were given.`,
        true,
      ),
      fresh: false,
      unusable: `no tool is named ${call.name}`,
    };
  }
  if (!args) {
    finishPart("failed", "arguments were not a JSON object");
    return {
      part: reply(
        `The arguments were not valid JSON for an object${call.argumentsError ? ` (${call.argumentsError})` : ""}. Call the tool again with a JSON object.`,
        true,
      ),
      fresh: false,
      unusable: `the arguments for ${call.name} were not a JSON object`,
    };
  }
  if (checked && !checked.ok) {
    // Not new information: a model that keeps sending bad arguments reaches the no-progress stop.
    finishPart("failed", `Invalid arguments: ${checked.errors.replace(/\n/g, "; ")}`);
    return {
      part: reply(
        `Invalid arguments for ${call.name}, the call was not run:\n${checked.errors}\nThe tool's input schema is ${JSON.stringify(schema)}. Call it again with arguments that match.`,
        true,
      ),
      fresh: false,
      unusable: `invalid arguments for ${call.name}: ${checked.errors.replace(/\n/g, "; ")}`,
    };
  }
  if (policy === "never") {
    finishPart("failed", "not allowed by the user's tool policy");
    return {
      part: reply(
        `The user does not allow ${tool} (${server}) to run. Do not call it again; continue without it.`,
        true,
      ),
      fresh: false,
    };
  }
  const key = callKey(server, tool, args);
  const earlier = deps.calls.findDone(key);
  if (earlier?.result) {
    finishPart("done", `reused the earlier result: ${earlier.result.summary}`);
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
  // A server skipped for its failures answers at once: no approval is asked for a call it would
  // not make.
  const skipped = approval.status === "none" && !!deps.tools.skipped?.(server);
  if (policy === "ask" && deps.approvals && !skipped) {
    if (approval.status === "none") {
      deps.approvals.request({
        callId: call.id,
        step: state.step,
        server,
        tool,
        arguments: args,
      });
      return "waiting";
    }
    if (approval.status === "pending") return "waiting";
    if (approval.decision === "deny") {
      const why = approval.expired
        ? "nobody answered the approval request in time, so it was denied"
        : approval.note
          ? `the user declined: ${approval.note}`
          : "the user declined";
      finishPart("failed", why);
      return {
        part: reply(
          `This call was not run: ${why}. Do not call it again unless the user asks; continue without it.`,
          true,
        ),
        fresh: true,
      };
    }
  }
  deps.calls.start({ id: call.id, key, server, tool, arguments: args }, input.turnId, state.step);
  const outcome = await deps.tools.call(server, tool, args, {
    callId: call.id,
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
    const result: NonNullable<ToolCallRecord["result"]> = {
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
        content: result.forModel,
      },
      fresh: true,
    };
  }
  const processed = processToolResult(outcome.result, tool);
  const saved: Array<{ id: string; title: string }> = [];
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
    saved.push({ id: ref.id, title: ref.title });
  }
  state.graphs.push(...processed.graphs);
  deps.calls.finish(call.id, processed.isError ? "failed" : "done", {
    forModel: processed.forModel,
    summary: processed.summary,
    isError: processed.isError,
    ...(saved.length > 0 && { artifacts: saved }),
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
