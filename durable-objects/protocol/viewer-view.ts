// What a viewer of a shared conversation is sent instead of the owner's spending. Usage is the
// owner's (roles.ts): a viewer gets no `usage_updated` nor `usage_recorded`, and a budget's line (the notice when a
// turn stops early, the answer's closing line) keeps its words but loses its figures, which are
// the turn's tokens used or dollars spent (time and steps are not spending and stay).
import type { MessagePart } from "./messages";
import { USAGE_EVENTS } from "./roles";
import type { ServerEvent } from "./wire";

/** The figures after a token or cost budget's name, as durable-objects/loop/budgets.ts words them. */
const SPENDING = /(to stay within this turn's (?:token|cost) budget) \([^)]*\)/g;

/** `text` without a token or cost budget's figures. */
export const withoutSpending = (text: string): string => text.replace(SPENDING, "$1");

/** Whether a stored event's JSON may carry spending (cheap, before parsing it). */
const mayCarrySpending = (body: string): boolean => body.includes("budget (");

export function partsForViewer(parts: MessagePart[]): MessagePart[] {
  return parts.map((p) => (p.type === "text" ? { ...p, text: withoutSpending(p.text) } : p));
}

/** The event as a viewer gets it, or null when they get none of it. */
export function eventForViewer<E extends ServerEvent>(event: E): E | null {
  if (USAGE_EVENTS.includes(event.type)) return null;
  if (event.type === "notice") return { ...event, message: withoutSpending(event.message) };
  if (event.type === "message_completed")
    return { ...event, content: partsForViewer(event.content) };
  return event;
}

/** A stored event's JSON as a viewer gets it (usage was left out already). */
export function bodyForViewer(body: string): string {
  if (!mayCarrySpending(body)) return body;
  const event = eventForViewer(JSON.parse(body) as ServerEvent);
  return event ? JSON.stringify(event) : body;
}

/** A stored message as a viewer reads it (REST pages, exports): an answer's budget line without figures. */
export function messageForViewer<M extends { role: string; content: MessagePart[] }>(
  message: M,
): M {
  return message.role === "assistant"
    ? { ...message, content: partsForViewer(message.content) }
    : message;
}

/**
 * A conversation as a viewer reads it: without the owner's budgets (a cost limit and an answer
 * that stopped to stay within it would tell what the answer cost).
 */
export function conversationForViewer<C extends { settings: { budgets?: unknown } }>(
  conversation: C,
): C {
  if (conversation.settings.budgets === undefined) return conversation;
  const { budgets: _budgets, ...settings } = conversation.settings;
  return { ...conversation, settings };
}
