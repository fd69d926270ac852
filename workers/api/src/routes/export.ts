// A conversation as one file to keep: Markdown to read, or JSON with every message and artifact
// as the API gives them (conversation-export/), written as it is read from D1.
import { contentDisposition } from "../http/content-disposition";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-types";
import {
  type ExportSource,
  jsonExport,
  markdownExport,
  streamOf,
} from "../conversation-export/export-stream";
import { exportFileName } from "../conversation-export/markdown";
import { artifactsWithContent, listArtifacts } from "../db/artifacts";
import { conversationFor } from "../db/conversation-access";
import { seesUsage } from "../../../../durable-objects/protocol/roles";
import {
  conversationForViewer,
  messageForViewer,
} from "../../../../durable-objects/protocol/viewer-view";
import { toConversation } from "../db/conversations";
import { listMessages } from "../db/messages";
import { parseParam } from "../http/validate";
import { validQuery } from "../http/validated";
import { IdParam } from "./conversations";

export const ExportQuery = z.object({
  format: z.enum(["markdown", "json"]).default("markdown"),
});

/** `attachment` with an ASCII name for old clients and the UTF-8 one (RFC 6266) for the rest. */

export const exportRoutes = new Hono<AppEnv>().get(
  "/:id/export",
  validQuery(ExportQuery),
  async (c) => {
    const id = parseParam(c, "id", IdParam);
    const { format } = c.req.valid("query");
    const db = c.get("db");
    const { row, role } = await conversationFor(db, c.get("user").id, id, "read");
    // A viewer's export, like their page, tells nothing of what the owner spends.
    const owners = seesUsage(role);
    const conversation = owners ? toConversation(row) : conversationForViewer(toConversation(row));
    const source: ExportSource = {
      conversation,
      exportedAt: new Date(),
      messagesAfter: async (seq, limit) => {
        const page = await listMessages(db, id, seq, limit);
        return owners ? page : page.map(messageForViewer);
      },
      artifacts: () => listArtifacts(db, id),
      withContent: (ids) => artifactsWithContent(db, id, ids),
    };
    const json = format === "json";
    return new Response(streamOf(json ? jsonExport(source) : markdownExport(source)), {
      headers: {
        "content-type": json ? "application/json; charset=utf-8" : "text/markdown; charset=utf-8",
        "content-disposition": contentDisposition(
          "attachment",
          exportFileName(conversation, json ? "json" : "md"),
        ),
        "cache-control": "private, no-store",
      },
    });
  },
);
