// A new branch takes in what it was given by its origin: the messages (shown to clients as
// `history_copied` events), the tool-call records behind them (so their results are reused,
// never run again), then its first move: an answer continued after the kept steps, an answer
// made again, or an edited question asked.
import { z } from "zod";
import {
  ArtifactRefPart,
  ChatMessage,
  ReasoningPart,
  TextPart,
  ToolCallPart,
} from "../../protocol/messages";
import { TemplateContext } from "../../protocol/template-context";
import type { NewServerEvent, SendMessage, ServerEvent } from "../../protocol/wire";
import type { LoopState } from "../../loop/types";
import { callIdsOf, toNeutralHistory, toolCallIdsIn } from "../history";
import { storedResults } from "../history-options";
import { saveCheckpoint } from "../loop-storage";
import type { ConversationStore, TurnRow } from "../store";
import { templateMessages } from "../template-prompt";
import { buildToolNameMap } from "../../providers/tool-names";
import { keptStepMessages } from "./kept-steps";

const ShownPart = z.discriminatedUnion("type", [TextPart, ReasoningPart, ToolCallPart]);

export const BranchSeed = z.object({
  messages: z.array(ChatMessage),
  branchSeq: z.number().int().min(1),
  toolCalls: z.array(
    z.object({
      id: z.string(),
      key: z.string(),
      server: z.string(),
      tool: z.string(),
      arguments: z.unknown(),
      status: z.enum(["started", "done", "failed", "error"]),
      result: z.unknown().optional(),
      step: z.number().int(),
    }),
  ),
  answer: z
    .object({
      userMessageId: z.string(),
      step: z.number().int().min(0),
      shown: z.array(ShownPart),
      artifactParts: z.array(ArtifactRefPart),
    })
    .optional(),
  send: z.string().min(1).optional(),
  provider: z.string(),
  model: z.string(),
  template: TemplateContext.optional(),
});
export type BranchSeed = z.infer<typeof BranchSeed>;

export interface SeedHost {
  readonly store: ConversationStore;
  emit(event: NewServerEvent): ServerEvent;
  /** Runs the turn now, from `resumed` when given. */
  startTurn(turn: TurnRow, resumed?: LoopState): void;
  /** Starts the next queued turn if none runs. */
  pump(): void;
  acceptMessage(frame: SendMessage): unknown;
}

/** Set once the branch holds its origin's history: a second seed (a retried call) does nothing. */
const SEEDED = "branch_seeded";
/** The automatic title is not asked for: a branch is named after its origin (branch-title.ts). */
const NAMED = "auto_title";

export function seedBranch(host: SeedHost, input: unknown): void {
  const seed = BranchSeed.parse(input);
  const { store } = host;
  if (store.getMeta(SEEDED)) return;
  store.setMeta(SEEDED, "1");
  store.setMeta(NAMED, "branch");
  const steps = new Map(seed.toolCalls.map((c) => [c.id, c.step]));
  for (const message of seed.messages) {
    store.putMessage(message);
    const callSteps = Object.fromEntries(
      message.content.flatMap((p) =>
        p.type === "tool_call" && steps.has(p.callId) ? [[p.callId, steps.get(p.callId)!]] : [],
      ),
    );
    host.emit({
      type: "history_copied",
      message,
      ...(Object.keys(callSteps).length > 0 && { callSteps }),
    });
  }
  const copiedTurn = `branch:${crypto.randomUUID()}`;
  for (const call of seed.toolCalls) store.copyToolCall(call, copiedTurn);
  if (seed.answer) startAnswer(host, seed, seed.answer);
  else if (seed.send)
    host.acceptMessage({ type: "send", clientMessageId: crypto.randomUUID(), text: seed.send });
}

function startAnswer(
  host: SeedHost,
  seed: BranchSeed,
  answer: NonNullable<BranchSeed["answer"]>,
): void {
  const { store } = host;
  const turn = {
    id: crypto.randomUUID(),
    userMessageId: answer.userMessageId,
    assistantMessageId: crypto.randomUUID(),
    assistantSeq: seed.branchSeq,
    startSeq: store.lastSeq() + 1,
    options: {},
    createdAt: Date.now(),
  };
  if (answer.step === 0) {
    // Answered again from the question: an ordinary turn.
    store.addTurn(turn);
    return host.pump();
  }
  // The answer continues after its kept steps: announced with what they showed, then resumed
  // from a checkpoint of them, as after a restart (recovery.ts), so a restart now resumes too.
  const opened = host.emit({
    type: "turn_started",
    turnId: turn.id,
    messageId: turn.assistantMessageId,
    userMessageId: turn.userMessageId,
    order: turn.assistantSeq,
    provider: seed.provider,
    model: seed.model,
  });
  store.addTurn({ ...turn, startSeq: opened.seq });
  host.emit({
    type: "step_restarted",
    turnId: turn.id,
    messageId: turn.assistantMessageId,
    step: answer.step + 1,
    content: [...answer.shown, ...answer.artifactParts],
  });
  const state = keptSteps(store, seed, answer);
  saveCheckpoint(store, turn.id, state);
  const running = store.startNextTurn();
  if (running) host.startTurn(running, state);
}

/** The loop's state at the end of the kept steps: their calls and results are in its history. */
function keptSteps(
  store: ConversationStore,
  seed: BranchSeed,
  answer: NonNullable<BranchSeed["answer"]>,
): LoopState {
  const earlier = seed.messages.filter((m) => m.seq < seed.branchSeq);
  const results = storedResults(store, [...toolCallIdsIn(earlier), ...callIdsOf(answer.shown)]);
  const resultOf = (id: string) => results.get(id);
  const steps = new Map(seed.toolCalls.map((c) => [c.id, c.step]));
  const names = buildToolNameMap(
    [...earlier.flatMap((m) => m.content), ...answer.shown].flatMap((p) =>
      p.type === "tool_call" ? [{ server: p.server, tool: p.tool }] : [],
    ),
  );
  return {
    step: answer.step,
    messages: [
      ...templateMessages(seed.template),
      ...toNeutralHistory(earlier, resultOf),
      ...keptStepMessages(
        answer.shown,
        (id) => steps.get(id),
        resultOf,
        (server, tool) => names.toSafe(server, tool),
      ),
    ],
    shown: answer.shown,
    artifactParts: answer.artifactParts,
    graphs: [],
    noProgressSteps: 0,
    formatterRepairs: 0,
  };
}
