// Shapes of sharing a conversation, shared by the worker, the Durable Object and the web client:
// who may do what (roles), members, read-only links and the snapshot a link shows.
import { z } from "zod";
import { ChatMessage } from "./messages";
import { Artifact, Conversation } from "./rest";
import { ConversationRole, MemberRole } from "./roles";

export { ConversationRole, MemberRole, refusalFor, type Right, roleAllows } from "./roles";

export const UserRef = z.object({ id: z.string(), name: z.string() });
export type UserRef = z.infer<typeof UserRef>;

export const Member = z.object({
  user: UserRef,
  role: MemberRole,
  addedAt: z.number(),
});
export type Member = z.infer<typeof Member>;

/** `GET /api/conversations/:id/members`: who has the conversation, and your own role. */
export const MemberList = z.object({
  role: ConversationRole,
  owner: UserRef,
  members: z.array(Member),
});
export type MemberList = z.infer<typeof MemberList>;

/** `PUT /api/conversations/:id/members`: a user of this instance by id or by exact name. */
export const AddMember = z
  .object({
    user: z.string().trim().min(1).max(200),
    role: MemberRole,
  })
  .strict();
export type AddMember = z.infer<typeof AddMember>;

export const ShareLink = z.object({
  id: z.string(),
  /** Where the snapshot is shown: the web client's page for it. */
  url: z.string(),
  /** The token the snapshot is fetched with: `GET /api/shared/:token`. */
  token: z.string(),
  upToSeq: z.number().int(),
  createdAt: z.number(),
  expiresAt: z.number().nullable(),
});
export type ShareLink = z.infer<typeof ShareLink>;

export const CreateShareLink = z
  .object({
    /** Days until the link stops working; without it the link works until revoked. */
    expiresInDays: z.number().int().min(1).max(365).optional(),
  })
  .strict();
export type CreateShareLink = z.infer<typeof CreateShareLink>;

/** What a read-only link shows: the conversation as it was when the link was made. */
export const SharedSnapshot = z.object({
  title: z.string(),
  owner: UserRef,
  createdAt: z.number(),
  sharedAt: z.number(),
  expiresAt: z.number().nullable(),
  messages: z.array(ChatMessage),
  // The artifacts made up to the link (without content): GET /api/shared/:token/artifacts/:id/download.
  artifacts: z.array(Artifact),
});
export type SharedSnapshot = z.infer<typeof SharedSnapshot>;

/** `GET /api/shared-with-me`: conversations other people shared with you. */
export const SharedConversation = z.object({
  conversation: Conversation,
  role: MemberRole,
  owner: UserRef,
});
export type SharedConversation = z.infer<typeof SharedConversation>;
