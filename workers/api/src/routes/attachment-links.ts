// GET /api/attachment-links/:id?exp&sig: an attachment's bytes for an MCP tool the model gave a
// link to (conversation/attachment-link-tool.ts). The signature is the credential: no session,
// no token; it opens one file, as a download, until it expires.
import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { ATTACHMENT_ARTIFACT_TYPE } from "../../../../durable-objects/protocol/attachments";
import { attachmentLinkSecret, attachmentLinkValid } from "../../../../shared/attachment-link";
import { artifacts } from "../../../../shared/db/schema";
import type { AppEnv } from "../app-types";
import { downloadResponse } from "../artifact-download";
import { ApiError, notFound } from "../http/errors";
import { parseParam } from "../http/validate";
import { validQuery } from "../http/validated";
import { IdParam } from "./conversations";

const LinkQuery = z.object({
  exp: z.coerce.number().int().positive(),
  sig: z.string().max(64),
});

export const attachmentLinkRoutes = new Hono<AppEnv>().get(
  "/:id",
  validQuery(LinkQuery),
  async (c) => {
    const id = parseParam(c, "id", IdParam);
    const { exp, sig } = c.req.valid("query");
    const secret = attachmentLinkSecret(c.env);
    if (!secret || !(await attachmentLinkValid(secret, id, exp, sig)))
      throw new ApiError(
        401,
        "unauthorized",
        "This attachment link is invalid or has expired: ask for a new one.",
      );
    const [row] = await c
      .get("db")
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.id, id), eq(artifacts.type, ATTACHMENT_ARTIFACT_TYPE)))
      .limit(1);
    if (!row) throw notFound("Attachment");
    return downloadResponse(c.env.ARTIFACTS, row, true);
  },
);
