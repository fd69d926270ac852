// Who may do what in a conversation: its roles and their rights. Shared by the worker, the
// Durable Object and the web client; apart from sharing.ts (which re-exports them) so that the
// object, which checks a role on every frame, does not build the sharing API's shapes as it starts.
import { z } from "zod";

/** A member's role; the owner is not a member but has every right. */
export const MemberRole = z.enum(["viewer", "participant"]);
export type MemberRole = z.infer<typeof MemberRole>;
export const ConversationRole = z.enum(["owner", "participant", "viewer"]);
export type ConversationRole = z.infer<typeof ConversationRole>;

/**
 * What a role allows. `read`: see the conversation, follow it live, download its artifacts.
 * `write`: send messages, cancel the turn, answer approvals and questions, see its usage.
 * `manage`: change or delete it, its artifacts and who it is shared with, read its audit log.
 */
export type Right = "read" | "write" | "manage";

export function roleAllows(role: ConversationRole, right: Right): boolean {
  if (role === "owner") return true;
  if (role === "participant") return right !== "manage";
  return right === "read";
}

/** Why a role cannot do something, in words a person can act on. */
export function refusalFor(role: ConversationRole, right: Right): string {
  if (role === "viewer")
    return right === "write"
      ? "You can read this conversation but not write in it: its owner shared it with you as a viewer. Ask the owner to make you a participant."
      : "Only the owner of this conversation can do this.";
  return "Only the owner of this conversation can do this; you take part in it as a participant.";
}

/**
 * Usage and cost are the owner's spending: a role sees them only if it may write (and so spend).
 * A viewer gets them nowhere: not from REST (403), nor as `usage_updated` or `usage_recorded` events, nor in meters.
 */
export const seesUsage = (role: ConversationRole): boolean => roleAllows(role, "write");

/**
 * The events that carry usage (an answer's calls, a title's or summary's): left out of what a
 * viewer receives, live or replayed.
 */
export const USAGE_EVENTS: readonly string[] = ["usage_updated", "usage_recorded"];
