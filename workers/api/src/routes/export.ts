// A conversation as one file to keep: Markdown to read, or JSON with every message and artifact
// as the API gives them (conversation-export/).
import { Hono } from "hono";
import { z } from "zod";
import type { ChatMessage } from "../../../../durable-objects/protocol/messages";
import type { AppEnv } from "../app-types";
import { conversationMarkdown, exportFileName } from "../conversation-export/markdown";
import { listArtifacts } from "../db/artifacts";
import { conversationFor } from "../db/conversation-access";
import { toConversation } from "../db/conversations";
import { listMessages } from "../db/messages";
import { parseParam } from "../http/validate";
import { validQuery } from "../http/validated";
import { IdParam } from "./conversations";

export const ExportQuery = z.object({
  format: z.enum(["markdown", "json"]).default("markdown"),
});

const PAGE = 500;

async function allMessages(db: AppEnv["Variables"]["db"], id: string): Promise<ChatMessage[]> {
  const all: ChatMessage[] = [];
  for (let after = 0; ;) {
    const page = await listMessages(db, id, after, PAGE);
    all.push(...page);
    if (page.length < PAGE) return all;
    after = page.at(-1)!.seq;
  }
}

/** `attachment` with an ASCII name for old clients and the UTF-8 one (RFC 6266) for the rest. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const exportRoutes = new Hono<AppEnv>().get(
  "/:id/export",
  validQuery(ExportQuery),
  async (c) => {
    const id = parseParam(c, "id", IdParam);
    const { format } = c.req.valid("query");
    const db = c.get("db");
    const { row } = await conversationFor(db, c.get("user").id, id, "read");
    const conversation = toConversation(row);
    const [messages, artifacts] = await Promise.all([
      allMessages(db, id),
      listArtifacts(db, id, true),
    ]);
    const exportedAt = new Date();
    if (format === "json")
      return c.json(
        { exportedAt: exportedAt.toISOString(), conversation, messages, artifacts },
        200,
        { "content-disposition": attachment(exportFileName(conversation, "json")) },
      );
    return c.body(conversationMarkdown({ conversation, messages, artifacts, exportedAt }), 200, {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": attachment(exportFileName(conversation, "md")),
    });
  },
);
