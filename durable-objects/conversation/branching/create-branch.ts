// Makes a branch: a new conversation linked to its origin, holding the origin's messages before
// the branch point (new ids, same order), its artifacts by reference (new rows over the same R2
// bytes and text), and the tool-call records behind them; then the branch's Durable Object is
// seeded and makes its first move. Used by the REST route and by the origin's WebSocket frame.
import { getAgentByName } from "agents";
import { and, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import { ApiError } from "../../../shared/api-error";
import { createDb, type Db } from "../../../shared/db/client";
import { artifacts, conversations, messages } from "../../../shared/db/schema";
import type { Env } from "../../../shared/env";
import type { BranchRequest } from "../../protocol/branches";
import type { ChatMessage, MessagePart } from "../../protocol/messages";
import { ConversationSettings } from "../../protocol/conversation-settings";
import { DEFAULT_MODELS } from "../../providers/registry";
import type { ProviderId } from "../../providers/types";
import { overDailyAllowance } from "../daily-allowance";
import type { BranchSource } from "./branch-source";
import { copyVersions } from "./artifact-history";
import { branchTitle } from "./branch-title";
import type { BranchSeed } from "./seed-branch";

/** The origin's answer to "what would a branch at this point hold" (its DO's RPC result). */
export type SourceResult =
  | { ok: true; source: BranchSource }
  | { ok: false; code: "not_found" | "invalid_request" | "conflict"; message: string };

export interface CreateBranchInput {
  env: Env;
  userId: string;
  originId: string;
  request: BranchRequest;
  readSource: (point: Pick<BranchRequest, "messageId" | "step" | "text">) => Promise<SourceResult>;
}

const STATUS = { not_found: 404, invalid_request: 400, conflict: 409 } as const;
const CODE = {
  not_found: "not_found",
  invalid_request: "bad_request",
  conflict: "conflict",
} as const;

/** Creates the branch and returns its id; throws an ApiError a person can act on. */
export async function createBranch(input: CreateBranchInput): Promise<{ id: string }> {
  const { env, request } = input;
  const db = createDb(env.DB);
  const [origin] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, input.originId), eq(conversations.userId, input.userId)))
    .limit(1);
  if (!origin) throw new ApiError(404, "not_found", "Conversation not found.");
  const result = await input.readSource({
    messageId: request.messageId,
    ...(request.step !== undefined && { step: request.step }),
    ...(request.text !== undefined && { text: request.text }),
  });
  if (!result.ok) throw new ApiError(STATUS[result.code], CODE[result.code], result.message);
  const { source } = result;
  if (source.answer || source.send) {
    const refused = await overDailyAllowance(env, input.userId);
    if (refused) throw new ApiError(refused.status, "rate_limited", refused.error.message);
  }

  const id = crypto.randomUUID();
  const messageIds = new Map(source.messages.map((m) => [m.id, crypto.randomUUID()]));
  const copies = await artifactCopies(db, origin.id, source);
  const copyOf = new Map(copies.map((a) => [a.originId, a.row]));
  // An answer's button and a question's file open the branch's copy, under its title now
  // (renamed since, say), as in the origin. One deleted there has no copy: the origin's source
  // marked it deleted already.
  const remap = (parts: MessagePart[]): MessagePart[] =>
    parts.map((p) => {
      const copy =
        p.type === "artifact" || p.type === "attachment" ? copyOf.get(p.artifactId) : undefined;
      if (!copy) return p;
      if (p.type === "artifact") return { ...p, artifactId: copy.id, title: copy.title };
      return p.type === "attachment" ? { ...p, artifactId: copy.id, name: copy.title } : p;
    });
  const copied: ChatMessage[] = source.messages.map((m) => ({
    ...m,
    id: messageIds.get(m.id)!,
    content: remap(m.content),
    clientMessageId: null,
  }));
  const provider = (request.provider ?? origin.provider) as ProviderId;
  const model = request.model ?? (request.provider ? DEFAULT_MODELS[provider] : origin.model);
  const settings = request.settings ?? parsedSettings(origin.settings);
  const title = request.title ?? (await branchTitle(db, input.userId, origin.title));
  const now = Date.now();

  const statements: BatchItem<"sqlite">[] = [
    db.insert(conversations).values({
      id,
      userId: input.userId,
      title,
      provider,
      model,
      mode: request.mode ?? origin.mode,
      settings: JSON.stringify(settings),
      createdAt: now,
      updatedAt: now,
      parentConversationId: origin.id,
      branchedFromMessageId: request.messageId,
      branchedFromStep: request.step ?? null,
      branchSeq: source.branchSeq,
    }),
    ...copied.map((m) =>
      db.insert(messages).values({
        id: m.id,
        conversationId: id,
        role: m.role,
        content: JSON.stringify(m.content),
        status: m.status,
        seq: m.seq,
        createdAt: m.createdAt,
      }),
    ),
    ...copies.map(({ row }) =>
      db.insert(artifacts).values({
        ...row,
        conversationId: id,
        messageId: row.messageId ? (messageIds.get(row.messageId) ?? null) : null,
      }),
    ),
    ...copyVersions(
      db,
      copies.map((a) => ({ originId: a.originId, copyId: a.row.id })),
    ),
  ];
  await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);

  const answer = source.answer;
  const seed: BranchSeed = {
    messages: copied,
    branchSeq: source.branchSeq,
    toolCalls: source.toolCalls,
    ...(answer && {
      answer: {
        userMessageId: messageIds.get(answer.userMessageId)!,
        step: answer.step,
        shown: answer.shown,
        artifactParts: copies
          .filter((a) => a.keptStepOf === answer.originMessageId)
          .map((a) => ({
            type: "artifact" as const,
            artifactId: a.row.id,
            artifactType: a.row.type,
            title: a.row.title,
          })),
      },
    }),
    ...(source.send !== undefined && { send: source.send }),
    provider,
    model,
    ...(settings.template && { template: settings.template }),
  };
  try {
    const stub = await getAgentByName(env.CONVERSATION, id);
    await stub.seedBranch(seed);
  } catch (err) {
    // A branch that could not take in its history is not left half made.
    await db.delete(conversations).where(eq(conversations.id, id));
    throw err;
  }
  return { id };
}

function parsedSettings(json: string): ConversationSettings {
  const parsed = ConversationSettings.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : {};
}

type ArtifactRow = typeof artifacts.$inferSelect;
interface ArtifactCopy {
  originId: string;
  row: ArtifactRow;
  /** Set for the artifacts of the kept steps of a continued answer: that answer's origin id. */
  keptStepOf?: string;
}

const ArtifactStep = z.object({
  source: z.object({ step: z.number(), origin: z.string() }).partial().optional(),
});

/**
 * The origin's artifacts of the copied messages, and those a continued answer's kept steps made
 * (tool results of those steps), as new rows of the branch over the same bytes: R2 is not copied.
 */
async function artifactCopies(
  db: Db,
  originId: string,
  source: BranchSource,
): Promise<ArtifactCopy[]> {
  const continued = source.answer?.originMessageId;
  const ids = [...source.messages.map((m) => m.id), ...(continued ? [continued] : [])];
  const rows: ArtifactRow[] = [];
  // D1 takes at most 100 bound parameters per statement.
  for (let i = 0; i < ids.length; i += 90) {
    rows.push(
      ...(await db
        .select()
        .from(artifacts)
        .where(
          and(
            eq(artifacts.conversationId, originId),
            inArray(artifacts.messageId, ids.slice(i, i + 90)),
          ),
        )),
    );
  }
  const kept = source.answer?.step ?? 0;
  return rows.flatMap((row): ArtifactCopy[] => {
    const copy = { ...row, id: crypto.randomUUID() };
    if (row.messageId !== continued) return [{ originId: row.id, row: copy }];
    const from = ArtifactStep.safeParse(JSON.parse(row.metadata)).data?.source;
    const inKeptStep = from?.origin === "tool" && (from.step ?? Infinity) <= kept;
    return inKeptStep
      ? [{ originId: row.id, row: { ...copy, messageId: null }, keptStepOf: continued! }]
      : [];
  });
}
