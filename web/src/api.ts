// REST calls from the browser: the session cookie authenticates; answers are parsed with zod.
import { z } from "zod";
import { type ChatMessage, MessagePage } from "../../durable-objects/protocol/messages";
import {
  Conversation,
  ConversationListItem,
  ProviderInfo,
} from "../../durable-objects/protocol/rest";
import { conversationOfPath, creationOf } from "./conversations/new-conversation";
import { LIST_PATH, PROVIDERS_PATH, SESSION_PATH, takeFirstRequest } from "./first-requests";

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Settles once the conversation exists (at once for one that is not new); one its socket could
 * not create is missing, with the server's reason.
 */
export const conversationCreatedOrMissing = (id: string): Promise<void> =>
  creationOf(id).catch((refused: Error) => {
    throw new ApiFailure(404, "not_found", refused.message);
  });

const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

async function request<T extends z.ZodType>(
  schema: T,
  path: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<z.infer<T>> {
  // A conversation still being created by its socket is not there to ask about yet.
  const about = conversationOfPath(path);
  if (about) await conversationCreatedOrMissing(about);
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  // A plain GET the page started early (first-requests.ts) takes that answer.
  const early = init.method || init.json !== undefined ? undefined : takeFirstRequest(path);
  const res = await (early ??
    fetch(path, {
      ...init,
      headers,
      credentials: "same-origin",
      body: init.json !== undefined ? JSON.stringify(init.json) : (init.body ?? null),
    }));
  if (res.status === 204) return schema.parse(undefined);
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const err = ErrorBody.safeParse(body);
    throw new ApiFailure(
      res.status,
      err.success ? err.data.error.code : "http_error",
      err.success ? err.data.error.message : `Request failed (${res.status}).`,
    );
  }
  return schema.parse(body);
}

const User = z.object({ id: z.string(), name: z.string() });

export const api = {
  // The page asked for this as its script started (first-requests.ts): that answer is taken.
  session: () => request(z.object({ user: User }), SESSION_PATH),
  signIn: (token: string) =>
    request(z.object({ user: User }), SESSION_PATH, { method: "POST", json: { token } }),
  signOut: () => request(z.undefined(), SESSION_PATH, { method: "DELETE" }),
  providers: () =>
    request(
      z.object({ providers: z.array(ProviderInfo), hint: z.string().optional() }),
      PROVIDERS_PATH,
    ),
  conversations: (q = "") =>
    request(
      z.object({ items: z.array(ConversationListItem), nextCursor: z.string().nullable() }),
      `${LIST_PATH}${q ? `&q=${encodeURIComponent(q)}` : ""}`,
    ),
  conversation: (id: string) => request(Conversation, `/api/conversations/${id}`),
  renameConversation: (id: string, title: string) =>
    request(Conversation, `/api/conversations/${id}`, { method: "PATCH", json: { title } }),
  deleteConversation: (id: string) =>
    request(z.undefined(), `/api/conversations/${id}`, { method: "DELETE" }),
  /** All of a conversation's messages: the route answers in pages, each naming the next. */
  messages: async (id: string) => {
    const items: ChatMessage[] = [];
    for (let after: number | null = 0; after !== null;) {
      const page: MessagePage = await request(
        MessagePage,
        `/api/conversations/${id}/messages?after=${after}&limit=500`,
      );
      items.push(...page.items);
      after = page.nextAfter;
    }
    return { items };
  },
};
export type User = z.infer<typeof User>;

/** The same zod-parsed request, for the REST calls of other parts of the client. */
export { request as apiRequest };
