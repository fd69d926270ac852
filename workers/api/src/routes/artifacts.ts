// REST for artifacts: read, edit, pin, delete, download.
import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { deleteUnsharedBytes } from "../artifact-bytes";
import { z } from "zod";
import type { AppEnv } from "../app-types";
import { toArtifact, updateArtifact } from "../db/artifacts";
import { artifactFor } from "../db/conversation-access";
import { getVersion, keepVersion, listVersions } from "../db/artifact-versions";
import type { Right } from "../../../../durable-objects/protocol/sharing";
import { artifacts } from "../../../../shared/db/schema";
import { ApiError, notFound } from "../http/errors";
import { parseJsonBody, parseParam } from "../http/validate";
import { downloadResponse, DownloadQuery } from "../artifact-download";
import { validQuery } from "../http/validated";
import { IdParam } from "./conversations";
import { conversationStub } from "../conversation-lifecycle";
import { announceArtifactChange } from "./artifact-notice";
import { ATTACHMENT_ARTIFACT_TYPE } from "../../../../durable-objects/protocol/attachments";
import { TitleInput } from "../../../../durable-objects/protocol/display-text";
import type { Artifact } from "../../../../durable-objects/protocol/rest";

export const PatchBody = z
  .object({
    content: z.string().max(1_000_000).optional(),
    title: TitleInput.optional(),
    baseUpdatedAt: z
      .number()
      .int()
      .optional()
      .describe(
        "The artifact's updatedAt when you read it: if it changed since, the edit is refused (409) instead of overwriting someone else's.",
      ),
  })
  .strict()
  .refine((b) => b.content !== undefined || b.title !== undefined, {
    message: "Send content or title.",
  });

// Deleted between the read and the write.
const gone = () => {
  throw notFound("Artifact");
};

const changedSince = () =>
  new ApiError(
    409,
    "conflict",
    "This artifact was changed since you opened it; reload it to see the new version, then edit again.",
  );

/** The artifact the path's :id names, if the caller has `right` in its conversation. */
const requestedArtifact = (c: Context<AppEnv>, right: Right) =>
  artifactFor(c.get("db"), c.get("user").id, parseParam(c, "id", IdParam), right);

export const artifactRoutes = new Hono<AppEnv>()
  .get("/:id", async (c) => {
    const row = await requestedArtifact(c, "read");
    return c.json(toArtifact(row, true));
  })
  .patch("/:id", async (c) => {
    const row = await requestedArtifact(c, "manage");
    const body = await parseJsonBody(c, PatchBody);
    if (body.content !== undefined && row.r2Key) {
      throw new ApiError(
        409,
        "conflict",
        "This artifact is binary; only its title can be changed.",
      );
    }
    const { baseUpdatedAt, ...patch } = body;
    if (baseUpdatedAt !== undefined && baseUpdatedAt !== row.updatedAt) throw changedSince();
    const saved = await updateArtifact(c.get("db"), row.id, patch, baseUpdatedAt);
    // Another save landed between the read above and this write (or, unconditional, a delete).
    if (!saved) throw baseUpdatedAt === undefined ? gone() : changedSince();
    // The save has landed: a version that could not be kept is logged, not reported as a
    // failed save (the client would then offer to save again what is already saved).
    if (patch.content !== undefined && patch.content !== row.content)
      await keepVersion(c.get("db"), row).catch((err: unknown) =>
        console.warn("could not keep an artifact's earlier version", err),
      );
    await announceArtifactChange(c, row.conversationId, {
      ...changeOf(saved),
      change: patch.content !== undefined ? "content" : "title",
    });
    return c.json(saved);
  })
  .get("/:id/versions", async (c) => {
    const row = await requestedArtifact(c, "read");
    return c.json({ items: await listVersions(c.get("db"), row.id) });
  })
  .get("/:id/versions/:versionId", async (c) => {
    const row = await requestedArtifact(c, "read");
    return c.json(await getVersion(c.get("db"), row.id, parseParam(c, "versionId", IdParam)));
  })
  .put("/:id/pin", (c) => pin(c, true))
  .delete("/:id/pin", (c) => pin(c, false))
  .delete("/:id", async (c) => {
    const row = await requestedArtifact(c, "manage");
    if (row.r2Key)
      await deleteUnsharedBytes(c.env.DB, c.env.ARTIFACTS, [row.r2Key], { artifactId: row.id });
    await c.get("db").delete(artifacts).where(eq(artifacts.id, row.id));
    await announceArtifactChange(c, row.conversationId, { ...changeOf(row), change: "deleted" });
    // The conversation keeps a PDF attachment's text for its turns; it goes with the file. A
    // failure here leaves it to the next turn, which forgets an attachment it finds deleted.
    if (row.type === ATTACHMENT_ARTIFACT_TYPE)
      await conversationStub(c.env, row.conversationId)
        .then((stub) => stub.forgetAttachment(row.id))
        .catch((err: unknown) => console.warn("could not forget a deleted attachment", err));
    return c.body(null, 204);
  })
  .get("/:id/download", validQuery(DownloadQuery), async (c) => {
    const row = await requestedArtifact(c, "read");
    const { attachment, inline } = c.req.valid("query");
    return downloadResponse(c.env.ARTIFACTS, row, attachment, inline);
  });

// Pins stay last-writer-wins: a pin is a toggle whose result everyone sees at once, so there is
// no one's work to lose (unlike an edit or a rename, which name the version they replace).
async function pin(c: Context<AppEnv>, pinned: boolean) {
  const row = await requestedArtifact(c, "manage");
  const saved = (await updateArtifact(c.get("db"), row.id, { pinned })) ?? gone();
  await announceArtifactChange(c, row.conversationId, { ...changeOf(saved), change: "pinned" });
  return c.json(saved);
}

const changeOf = (a: Pick<Artifact, "id" | "title" | "pinned" | "updatedAt">) => ({
  artifactId: a.id,
  title: a.title,
  pinned: a.pinned,
  updatedAt: a.updatedAt,
});
