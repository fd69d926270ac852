// Attachments reach MCP tools only when the model asks: a tool of the conversation itself,
// `attachment_link`, answers a short-lived signed link to one attachment of this conversation
// (shared/attachment-link.ts), which the model may pass to another tool. The link carries no
// credential of the user's and opens that file only, for ten minutes.
import { z } from "zod";
import type { CatalogTool, ToolRunner } from "../loop/types";
import type { AttachmentPart, ChatMessage } from "../protocol/messages";
import {
  ATTACHMENT_LINK_TTL_SECONDS,
  attachmentLinkPath,
  attachmentLinkSecret,
} from "../../shared/attachment-link";
import type { Env } from "../../shared/env";
import { runnerHooks } from "../loop/runner-hooks";

/** The pseudo-server the tool belongs to in the timeline and in tool policies. */
export const ATTACHMENTS_SERVER = "attachments";
export const ATTACHMENT_LINK_TOOL = "attachment_link";

const Args = z.object({ artifactId: z.string().min(1) });

export function withAttachmentLinks(
  runner: ToolRunner,
  opts: {
    env: Pick<Env, "SIGNING_SECRET" | "GRAPH_CONTEXT_SECRET">;
    history: readonly ChatMessage[];
    /** Where the API worker answers (learned from requests); links need it. */
    apiBase: string;
    now?: () => number;
  },
): ToolRunner {
  const attachments = new Map<string, AttachmentPart>();
  for (const m of opts.history)
    for (const p of m.content) if (p.type === "attachment") attachments.set(p.artifactId, p);
  const secret = attachmentLinkSecret(opts.env);
  if (attachments.size === 0 || !secret || !opts.apiBase) return runner;
  const tool: CatalogTool = {
    server: ATTACHMENTS_SERVER,
    tool: ATTACHMENT_LINK_TOOL,
    description:
      "A download link (valid 10 minutes) to one file the user attached in this conversation, " +
      "to pass to a tool that needs the file. Use the artifact id named in the attachment's label.",
    inputSchema: {
      type: "object",
      properties: {
        artifactId: { type: "string", description: "The attachment's artifact id." },
      },
      required: ["artifactId"],
    },
    annotations: { readOnlyHint: true },
  };
  return {
    async catalog() {
      const result = await runner.catalog();
      return { ...result, tools: [...result.tools, tool] };
    },
    ...runnerHooks(runner),
    async call(server, name, args, hooks) {
      if (server !== ATTACHMENTS_SERVER || name !== ATTACHMENT_LINK_TOOL)
        return runner.call(server, name, args, hooks);
      const parsed = Args.safeParse(args);
      const part = parsed.success ? attachments.get(parsed.data.artifactId) : undefined;
      if (!part)
        return {
          ok: true,
          result: {
            isError: true,
            content: [
              {
                type: "text",
                text: `No attachment of this conversation has that id. The attachments are: ${[
                  ...attachments.values(),
                ]
                  .map((a) => `${a.artifactId} (${a.name})`)
                  .join(", ")}.`,
              },
            ],
          },
        };
      const expiresAt = (opts.now?.() ?? Date.now()) + ATTACHMENT_LINK_TTL_SECONDS * 1000;
      const url = new URL(
        await attachmentLinkPath(secret, part.artifactId, expiresAt),
        opts.apiBase,
      );
      const link = {
        url: url.href,
        expiresAt: new Date(expiresAt).toISOString(),
        name: part.name,
        contentType: part.contentType,
        size: part.size,
      };
      return { ok: true, result: { content: [{ type: "text", text: JSON.stringify(link) }] } };
    },
  };
}
