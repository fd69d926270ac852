// Usage and cost: per conversation (and each answer in it), and per UTC day and model for the
// signed-in user. Both sit behind requireUser.
import { Hono } from "hono";
import { z } from "zod";
import type { ConversationUsage, UserUsage } from "../../../../durable-objects/protocol/usage";
import type { AppEnv } from "../app-types";
import { conversationFor } from "../db/conversation-access";
import { conversationUsage, userUsageByDay } from "../../../../shared/db/usage";
import { ApiError } from "../http/errors";
import { parseParam } from "../http/validate";
import { validQuery } from "../http/validated";
import { IdParam } from "./conversations";

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;

const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

// Date.parse takes 2026-02-30 as March 2: a real day reads back as itself.
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a UTC day as YYYY-MM-DD")
  .refine((d) => {
    const ms = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(ms) && dayOf(ms) === d;
  }, "not a calendar day: give a day its month has, as YYYY-MM-DD");

const RangeQuery = z.object({ from: Day.optional(), to: Day.optional() }).strict();

/** Per conversation: mounted on /api/conversations. */
export const conversationUsageRoutes = new Hono<AppEnv>().get("/:id/usage", async (c) => {
  const id = parseParam(c, "id", IdParam);
  await conversationFor(c.get("db"), c.get("user").id, id, "write");
  const usage = await conversationUsage(c.env.DB, id);
  return c.json({ conversationId: id, ...usage } satisfies ConversationUsage);
});

/** Per user: mounted on /api/usage. `from` and `to` are inclusive UTC days (default: 30 days). */
export const userUsageRoutes = new Hono<AppEnv>().get("/", validQuery(RangeQuery), async (c) => {
  const query = c.req.valid("query");
  const to = query.to ?? dayOf(Date.now());
  const from = query.from ?? dayOf(dayStart(to) - (DEFAULT_DAYS - 1) * DAY_MS);
  const span = (dayStart(to) - dayStart(from)) / DAY_MS + 1;
  if (span < 1) throw new ApiError(400, "validation_failed", "`from` must be on or before `to`.");
  if (span > MAX_DAYS)
    throw new ApiError(
      400,
      "validation_failed",
      `Ask for at most ${MAX_DAYS} days at a time (this range has ${span}).`,
    );
  const usage = await userUsageByDay(
    c.env.DB,
    c.get("user").id,
    dayStart(from),
    dayStart(to) + DAY_MS,
  );
  return c.json({ from, to, ...usage } satisfies UserUsage);
});
