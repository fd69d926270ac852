// Telling an artifact's conversation that it was edited, renamed, pinned or deleted over REST:
// its open tabs and event streams follow at once (an `artifact_changed` event), and the model is
// told of the artifact as it is now at its next turn (store.artifactNow). The change is in D1
// already, so a word that cannot be sent does not fail the request. Lost, it would leave the
// conversation's log on the old title or state for good (the object reads artifacts from D1 only
// when pinned or attached): so the word is sent once more, a moment later, beside the answer,
// with the artifact as D1 holds it then (a later change may have landed meanwhile).
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { ArtifactChange } from "../../../../durable-objects/protocol/wire";
import type { Db } from "../../../../shared/db/client";
import { artifacts } from "../../../../shared/db/schema";
import type { Env } from "../../../../shared/env";
import type { AppEnv } from "../app-types";
import { conversationStub } from "../conversation-lifecycle";
import { besideRequest } from "../http/beside-request";

/** How long the second try waits: a reset object (a deploy) takes calls again by then. */
export const ARTIFACT_NOTICE_RETRY_MS = 1000;

export async function announceArtifactChange(
  c: Context<AppEnv>,
  conversationId: string,
  change: ArtifactChange,
): Promise<void> {
  try {
    await tell(c.env, conversationId, change);
  } catch (err) {
    console.warn("could not tell the conversation of an artifact change", err);
    besideRequest(c)(tellAgain(c.env, c.get("db"), conversationId, change));
  }
}

async function tell(env: Env, conversationId: string, change: ArtifactChange): Promise<void> {
  await (await conversationStub(env, conversationId)).artifactChanged(change);
}

async function tellAgain(env: Env, db: Db, conversationId: string, first: ArtifactChange) {
  await new Promise((r) => setTimeout(r, ARTIFACT_NOTICE_RETRY_MS));
  try {
    const [row] = await db
      .select({ title: artifacts.title, pinned: artifacts.pinned, updatedAt: artifacts.updatedAt })
      .from(artifacts)
      .where(eq(artifacts.id, first.artifactId))
      .limit(1);
    // Deleted since (ids are never reused): that is the news, whatever the first word was.
    const now: ArtifactChange = row ? { ...first, ...row } : { ...first, change: "deleted" };
    await tell(env, conversationId, now);
  } catch (err) {
    console.warn(
      "could not tell the conversation of an artifact change, twice: its log (what tabs replay, what the model is told) keeps the artifact's old title or state",
      err,
    );
  }
}
