// Attachments reach tools only on request, without the user's credentials: the model asks the
// `attachment_link` tool for a link, and the link alone (no token, no cookie) opens that one
// file, until it expires. The link route is the real API worker's, with the real R2 and D1.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { attach, pngBytes } from "../../tests/support/attachment-fixtures";
import { BASE, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import type { ToolRunner } from "../loop/types";
import type { AttachmentPart, ChatMessage } from "../protocol/messages";
import {
  ATTACHMENT_LINK_TOOL,
  ATTACHMENTS_SERVER,
  withAttachmentLinks,
} from "./attachment-link-tool";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

// The conversation's MCP servers: none here, so the catalog shows what the wrapper adds.
const noServers: ToolRunner = {
  catalog: async () => ({ tools: [], warnings: [] }),
  call: async (server) => ({ ok: false, error: { code: "unknown_server", message: server } }),
};
const hooks = {
  callId: "call-1",
  signal: new AbortController().signal,
  onProgress: () => undefined,
  onLog: () => undefined,
};

function historyWith(parts: AttachmentPart[]): ChatMessage[] {
  return [
    {
      id: "m1",
      role: "user",
      content: [{ type: "text", text: "Analyse this image with the tool" }, ...parts],
      status: "complete",
      seq: 1,
      createdAt: Date.now(),
    },
  ];
}

async function linkFor(runner: ToolRunner, artifactId: string) {
  const outcome = await runner.call(
    ATTACHMENTS_SERVER,
    ATTACHMENT_LINK_TOOL,
    { artifactId },
    hooks,
  );
  if (!outcome.ok) throw new Error(outcome.error.message);
  const result = outcome.result as { isError?: boolean; content: Array<{ text: string }> };
  return { isError: result.isError ?? false, text: result.content[0]!.text };
}

const fetchWithoutCredentials = (url: string) => exports.default.fetch(new Request(url));

describe("attachment links for tools", () => {
  it("offers the tool only in a conversation with attachments", async () => {
    const plain = withAttachmentLinks(noServers, { env, history: historyWith([]), apiBase: BASE });
    expect((await plain.catalog()).tools).toEqual([]);
  });

  it("answers a link that opens the file without credentials, and nothing else", async () => {
    const { id } = await createConversation(user);
    const artifactId = await attach(user, id, "blot.png", pngBytes());
    const part: AttachmentPart = {
      type: "attachment",
      artifactId,
      name: "blot.png",
      contentType: "image/png",
      size: pngBytes().length,
      kind: "image",
    };
    const runner = withAttachmentLinks(noServers, {
      env,
      history: historyWith([part]),
      apiBase: BASE,
    });
    expect((await runner.catalog()).tools.map((t) => `${t.server}/${t.tool}`)).toEqual([
      "attachments/attachment_link",
    ]);

    const answer = await linkFor(runner, artifactId);
    expect(answer.isError).toBe(false);
    const link = JSON.parse(answer.text) as { url: string; name: string; expiresAt: string };
    expect(link.name).toBe("blot.png");
    expect(link.url).not.toContain(user.token);
    const res = await fetchWithoutCredentials(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pngBytes());

    // A changed signature, another file, or an expired link: refused.
    const url = new URL(link.url);
    const tampered = new URL(url);
    tampered.searchParams.set("sig", "0".repeat(64));
    expect((await fetchWithoutCredentials(tampered.href)).status).toBe(401);
    const other = await attach(user, id, "other.png", pngBytes());
    const moved = new URL(url);
    moved.pathname = `/api/attachment-links/${other}`;
    expect((await fetchWithoutCredentials(moved.href)).status).toBe(401);
    const stale = withAttachmentLinks(noServers, {
      env,
      history: historyWith([part]),
      apiBase: BASE,
      now: () => Date.now() - 11 * 60_000,
    });
    const expired = JSON.parse((await linkFor(stale, artifactId)).text) as { url: string };
    const refused = await fetchWithoutCredentials(expired.url);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain("invalid or has expired");

    // Only this conversation's attachments: another id is an error the model reads.
    const foreign = await linkFor(runner, "someone-elses");
    expect(foreign.isError).toBe(true);
    expect(foreign.text).toContain(`${artifactId} (blot.png)`);
  });
});
