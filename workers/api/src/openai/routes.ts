// OpenAI-compatible endpoints, so the clients and SDKs people already use can talk to the app:
// GET /v1/models, POST /v1/chat/completions and POST /v1/responses (streaming or not), with an
// API token as the bearer. Each request is a message in one of the user's conversations (named
// by the X-Conversation-Id header or a previous response's id, or created for it), so the turn
// also shows in the web client. An Idempotency-Key makes a resend safe (idempotency.ts).
import { type Context, Hono } from "hono";
import { SOCKET_CREDENTIAL_HEADER } from "../../../../durable-objects/conversation/socket-credential";
import {
  configuredProviders,
  DEFAULT_MODELS,
} from "../../../../durable-objects/providers/registry";
import type { ReasoningEffort } from "../../../../durable-objects/protocol/conversation-settings";
import type { SendMessage, SendOptions } from "../../../../durable-objects/protocol/wire";
import { RATE_LIMITS } from "../../../../shared/rate-limit/limits";
import type { AppEnv } from "../app-types";
import { liveCredentialOf } from "../auth/websocket-auth";
import { conversationStub } from "../conversation-lifecycle";
import { conversationFor as conversationWithRight } from "../db/conversation-access";
import { conversationInsert, createConversation, type NewConversation } from "../db/conversations";
import { ApiError } from "../http/errors";
import { parseJsonBody } from "../http/validate";
import { byUser, enforceRateLimit } from "../rate-limit/middleware";
import { IdParam } from "../routes/conversations";
import { listModels, modelById, noSuchModel, sendOptionsFor } from "./models";
import { completionBody, streamCompletion } from "./completion-answers";
import {
  ChatCompletionRequest,
  newMessageText,
  type OpenAiMessage,
  reasoningEffortOf,
} from "./request";
import { messagesOf, ResponsesRequest } from "./responses-request";
import {
  conversationOfResponse,
  responseBody,
  responseIdOf,
  streamResponse,
} from "./responses-answer";
import { readServerEvents } from "./server-events";
import {
  earlierRequest,
  fingerprintOf,
  IDEMPOTENCY_HEADER,
  idempotencyKeyOf,
  type Reservation,
  reserve,
} from "./idempotency";

/** Names an existing conversation; the answer carries it back whichever way it was chosen. */
export const CONVERSATION_HEADER = "x-conversation-id";

export const openAiRoutes = new Hono<AppEnv>()
  .get("/models", (c) => c.json({ object: "list" as const, data: listModels(c.env) }))
  // The SDKs send `<provider>/<model>` with its slash encoded; a hand-written URL may not.
  .get("/models/:id", (c) => c.json(listedModel(c.env, c.req.param("id"))))
  .get("/models/:provider/:model", (c) =>
    c.json(listedModel(c.env, `${c.req.param("provider")}/${c.req.param("model")}`)),
  )
  .post("/chat/completions", async (c) => {
    const body = await parseJsonBody(c, ChatCompletionRequest);
    const turn = await startTurn(c, {
      model: body.model,
      messages: body.messages,
      named: c.req.header(CONVERSATION_HEADER),
      attachments: body.attachments,
      reasoningEffort: reasoningEffortOf(body.reasoning_effort, "reasoning_effort"),
    });
    const { events, createdAt, ...ids } = turn;
    // A repeat (Idempotency-Key) answers as the first request did: same id, same time.
    const answer = {
      id: `chatcmpl-${ids.clientMessageId}`,
      created: Math.floor(createdAt / 1000),
      model: body.model,
      ...ids,
    };
    const headers = { [CONVERSATION_HEADER]: ids.conversationId };
    if (body.stream)
      return streamed(
        streamCompletion(answer, events, body.stream_options?.include_usage === true),
        headers,
      );
    return c.json(await completionBody(answer, events), 200, headers);
  })
  .post("/responses", async (c) => {
    const body = await parseJsonBody(c, ResponsesRequest);
    const turn = await startTurn(c, {
      model: body.model,
      messages: messagesOf(body),
      named: namedConversation(c.req.header(CONVERSATION_HEADER), body.previous_response_id),
      attachments: body.attachments,
      reasoningEffort: reasoningEffortOf(body.reasoning?.effort, "reasoning.effort"),
    });
    const { events, createdAt, ...ids } = turn;
    const answer = {
      id: responseIdOf(ids.conversationId, ids.clientMessageId),
      created: Math.floor(createdAt / 1000),
      model: body.model,
      ...ids,
    };
    const headers = { [CONVERSATION_HEADER]: ids.conversationId };
    if (body.stream) return streamed(streamResponse(answer, events), headers);
    return c.json(await responseBody(answer, events), 200, headers);
  });

function listedModel(env: AppEnv["Bindings"], id: string) {
  const model = modelById(env, id);
  if (!model) throw noSuchModel(id);
  return model;
}

const streamed = (body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
  new Response(body, {
    headers: {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
    },
  });

/** The conversation the header names, or the one a previous response of ours came from. */
function namedConversation(
  header: string | undefined,
  previousResponseId: string | null | undefined,
): string | undefined {
  if (!previousResponseId) return header;
  const previous = conversationOfResponse(previousResponseId);
  if (previous === null)
    throw new ApiError(
      400,
      "bad_request",
      `previous_response_id '${previousResponseId}' is not a response of this app: send the id of one of its answers, or leave it out for a new conversation.`,
    );
  if (header !== undefined && header !== previous)
    throw new ApiError(
      400,
      "bad_request",
      `previous_response_id belongs to conversation ${previous}, but ${CONVERSATION_HEADER} names ${header}: send one of them.`,
    );
  return previous;
}

/**
 * Sends the request's new message into the conversation `named` (or a new one for it), as
 * POST /api/conversations/:id/chat does: the ids of both, and the events of its turn.
 */
async function startTurn(
  c: Context<AppEnv>,
  request: {
    model: string;
    messages: OpenAiMessage[];
    named?: string;
    attachments?: string[] | undefined;
    reasoningEffort?: ReasoningEffort | undefined;
  },
) {
  const model = sendOptionsFor(c.env, request.model);
  const options: SendOptions = {
    ...model,
    ...(request.reasoningEffort && { reasoningEffort: request.reasoningEffort }),
  };
  const { named } = request;
  if (request.attachments?.length && named === undefined)
    throw new ApiError(
      400,
      "bad_request",
      `Attachments belong to a conversation: name it with the ${CONVERSATION_HEADER} header.`,
    );
  const text = newMessageText(request.messages, named === undefined);
  const key = idempotencyKeyOf(c.req.header(IDEMPOTENCY_HEADER));
  const sent = key
    ? await keyedMessage(c, key, named, model, text)
    : await unkeyedMessage(c, named, model, text);
  const message: Omit<SendMessage, "type"> = {
    clientMessageId: sent.clientMessageId,
    text,
    ...(Object.keys(options).length > 0 && { options }),
    ...(request.attachments?.length && { attachments: request.attachments }),
  };
  const events = await sendToConversation(c, sent.conversationId, message);
  return { ...sent, events };
}

/** The conversation and clientMessageId of a request without an Idempotency-Key: new ones. */
async function unkeyedMessage(
  c: Context<AppEnv>,
  named: string | undefined,
  model: { provider?: string; model?: string },
  text: string,
): Promise<Reservation> {
  await enforceRateLimit(c, RATE_LIMITS.message, byUser);
  return {
    conversationId: await conversationFor(c, named, model.provider, model.model, text),
    clientMessageId: crypto.randomUUID(),
    createdAt: Date.now(),
  };
}

/**
 * The conversation and clientMessageId of a request with an Idempotency-Key: the first request's
 * when this one repeats it (the conversation then stores the message once and answers with its
 * turn), else new ones, reserved under the key.
 */
async function keyedMessage(
  c: Context<AppEnv>,
  key: string,
  named: string | undefined,
  model: { provider?: string; model?: string },
  text: string,
): Promise<Reservation> {
  const db = c.get("db");
  const userId = c.get("user").id;
  const request = {
    userId,
    key,
    fingerprint: await fingerprintOf([
      c.req.path,
      c.req.header(CONVERSATION_HEADER) ?? "",
      await c.req.text(),
    ]),
  };
  const earlier = await earlierRequest(db, request);
  // A resend is the same message: it counts against the message limit once, as it was first sent.
  if (earlier) return withAccess(c, earlier);
  await enforceRateLimit(c, RATE_LIMITS.message, byUser);
  const fresh = {
    conversationId:
      named === undefined
        ? crypto.randomUUID()
        : await conversationFor(c, named, model.provider, model.model, text),
    clientMessageId: crypto.randomUUID(),
    createdAt: Date.now(),
  };
  if (named !== undefined) return (await reserve(db, request, fresh)).reservation;
  await enforceRateLimit(c, RATE_LIMITS.newConversation, byUser);
  const create = conversationInsert(
    db,
    fresh.conversationId,
    newConversation(c, userId, model.provider, model.model, text),
  );
  const reserved = await reserve(db, request, fresh, [create]);
  return reserved.fresh ? reserved.reservation : withAccess(c, reserved.reservation);
}

/** A repeat still needs the right to write where the first request did (a member may be removed). */
async function withAccess(c: Context<AppEnv>, earlier: Reservation): Promise<Reservation> {
  await conversationWithRight(c.get("db"), c.get("user").id, earlier.conversationId, "write");
  return earlier;
}

async function conversationFor(
  c: Context<AppEnv>,
  named: string | undefined,
  provider: string | undefined,
  model: string | undefined,
  text: string,
): Promise<string> {
  const userId = c.get("user").id;
  if (named !== undefined) {
    const id = IdParam.safeParse(named);
    if (!id.success)
      throw new ApiError(400, "bad_request", `${CONVERSATION_HEADER} must be a conversation id.`);
    // Members with the right to write (participants) may send too; a viewer gets 403.
    return (await conversationWithRight(c.get("db"), userId, id.data, "write")).row.id;
  }
  await enforceRateLimit(c, RATE_LIMITS.newConversation, byUser);
  const conversation = await createConversation(
    c.get("db"),
    newConversation(c, userId, provider, model, text),
  );
  return conversation.id;
}

/** A conversation for a request that named none, titled with its message's first line. */
function newConversation(
  c: Context<AppEnv>,
  userId: string,
  provider: string | undefined,
  model: string | undefined,
  text: string,
): NewConversation {
  const chosen = (provider ??
    configuredProviders(c.env)[0] ??
    "anthropic") as keyof typeof DEFAULT_MODELS;
  const firstLine =
    text
      .split("\n")
      .find((line) => line.trim())
      ?.trim() ?? "";
  return {
    userId,
    title: firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine || "API conversation",
    provider: chosen,
    model: model ?? DEFAULT_MODELS[chosen],
    mode: "normal",
    settings: {},
  };
}

/** Sends the message as POST /api/conversations/:id/chat does; the events of its turn. */
async function sendToConversation(
  c: Context<AppEnv>,
  conversationId: string,
  message: Omit<SendMessage, "type">,
) {
  const stub = await conversationStub(c.env, conversationId);
  const res = await stub.fetch(
    new Request(new URL("/chat", c.req.url), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [SOCKET_CREDENTIAL_HEADER]: JSON.stringify(liveCredentialOf(c.get("credential"))),
      },
      body: JSON.stringify(message),
    }),
  );
  if (!res.ok || !res.body) {
    const problem = (await res.json().catch(() => null)) as {
      error?: { code?: string; message?: string };
    } | null;
    // The conversation refused what was sent (an attachment that is not its own): say so as is.
    if (res.status === 400 && problem?.error?.message)
      throw new ApiError(
        400,
        problem.error.code === "invalid_attachment" ? "invalid_attachment" : "bad_request",
        problem.error.message,
      );
    throw new ApiError(
      502,
      "upstream_failed",
      problem?.error?.message ?? `The conversation refused the message (HTTP ${res.status}).`,
    );
  }
  return readServerEvents(res.body);
}
