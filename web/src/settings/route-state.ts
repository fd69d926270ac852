// The route editor's draft (fallback models in order, local first, timeout) and how it becomes
// the conversation's settings: checked here so the form can say what to fix before saving.
import { z } from "zod";
import { type ConversationSettings, RouteModel } from "../../../durable-objects/protocol/rest";

export interface RouteDraft {
  fallbacks: { provider: string; model: string }[];
  localFirst: boolean;
  /** Seconds, as typed. */
  timeout: string;
}

export const DEFAULT_ROUTE_TIMEOUT_SECONDS = 60;
export const MAX_FALLBACKS = 5;

export function draftOf(settings: ConversationSettings): RouteDraft {
  return {
    fallbacks: (settings.route ?? []).map((m) => ({ ...m })),
    localFirst: settings.localFirst ?? false,
    timeout: String(settings.routeTimeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_SECONDS),
  };
}

/** Moves the fallback at `from` one place up (-1) or down (+1). */
export function moved<T>(list: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

type RouteSettings = Pick<ConversationSettings, "route" | "localFirst" | "routeTimeoutSeconds">;

/** The draft as settings, or what to fix. `primary` is the conversation's own provider. */
export function routeSettings(
  draft: RouteDraft,
  primary: { provider: string; model: string },
): { ok: true; value: RouteSettings } | { ok: false; error: string } {
  const fallbacks = draft.fallbacks.map((f) => ({ provider: f.provider, model: f.model.trim() }));
  const blank = fallbacks.findIndex((f) => !f.model);
  if (blank >= 0) return { ok: false, error: `Fallback ${blank + 1} needs a model.` };
  if (fallbacks.length > MAX_FALLBACKS)
    return { ok: false, error: `A route has at most ${MAX_FALLBACKS} fallbacks.` };
  const seen = new Set([`${primary.provider}/${primary.model}`]);
  for (const [i, f] of fallbacks.entries()) {
    const key = `${f.provider}/${f.model}`;
    if (seen.has(key))
      return { ok: false, error: `Fallback ${i + 1} (${f.model}) is already in the route.` };
    seen.add(key);
  }
  const seconds = Number(draft.timeout.trim());
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600)
    return { ok: false, error: "The timeout is a whole number of seconds from 1 to 600." };
  const parsed = z.array(RouteModel).safeParse(fallbacks);
  if (!parsed.success)
    return { ok: false, error: "A fallback names a provider this app does not know." };
  const models = [primary, ...fallbacks];
  if (draft.localFirst && !models.some((m) => m.provider === "ollama"))
    return {
      ok: false,
      error: "Local first needs an Ollama model in the route: add one as a fallback.",
    };
  if (draft.localFirst && models.every((m) => m.provider === "ollama"))
    return {
      ok: false,
      error: "Local first needs a cloud model for the answer: add one as a fallback.",
    };
  return {
    ok: true,
    value: {
      route: parsed.data,
      localFirst: draft.localFirst,
      routeTimeoutSeconds: seconds,
    },
  };
}
