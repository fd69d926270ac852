import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../../../durable-objects/protocol/messages";
import type { Artifact, Conversation } from "../../../../durable-objects/protocol/rest";
import { type ExportSource, jsonExport, markdownExport } from "./export-stream";
import { exportFileName } from "./markdown";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

/** A conversation held in memory, read as the route reads D1; `reads` counts each read. */
function source(messages: ChatMessage[], artifacts: Artifact[]) {
  const reads = { pages: 0, contents: [] as string[][] };
  const from: ExportSource = {
    conversation,
    exportedAt: new Date(at + 3_600_000),
    messagesAfter: async (seq, limit) => {
      reads.pages += 1;
      return messages.filter((m) => m.seq > seq).slice(0, limit);
    },
    artifacts: async () => artifacts.map((a) => ({ ...a, content: undefined })),
    withContent: async (ids) => {
      reads.contents.push([...ids]);
      return ids.flatMap((id) => artifacts.filter((a) => a.id === id));
    },
  };
  return { from, reads };
}

async function collect(pieces: AsyncGenerator<string>): Promise<string> {
  let text = "";
  for await (const piece of pieces) text += piece;
  return text;
}

const at = Date.UTC(2026, 10, 29, 6, 30);
const conversation: Conversation = {
  id: "c1",
  title: "Sorting in Rust",
  provider: "anthropic",
  model: "claude-haiku-4-5",
  mode: "normal",
  settings: {},
  createdAt: at,
  updatedAt: at,
};

const artifact = (
  fields: Partial<Artifact> & Pick<Artifact, "id" | "type" | "title">,
): Artifact => ({
  conversationId: "c1",
  messageId: null,
  language: null,
  contentType: null,
  size: null,
  pinned: false,
  position: 0,
  metadata: {},
  createdAt: at,
  updatedAt: at,
  content: null,
  ...fields,
});

const message = (
  fields: Partial<ChatMessage> & Pick<ChatMessage, "role" | "content">,
): ChatMessage => ({
  id: crypto.randomUUID(),
  status: "complete",
  seq: 1,
  createdAt: at + 60_000,
  ...fields,
});

describe("a conversation exported", () => {
  it("reads as the conversation did: who said what, the tools used, artifacts where they were made", async () => {
    const code = artifact({
      id: "a1",
      type: "application/vnd.ant.code",
      title: "sort.rs",
      language: "rust",
      // A fence of three backticks inside the content must not end the block.
      content: "fn main() {\n    // ```not a fence```\n}\n",
    });
    // Renamed since the answer made it (the message still says "Timings"): shown as it is now.
    const chart = artifact({
      id: "a2",
      type: "image/png",
      title: "Timings per run",
      contentType: "image/png",
    });
    const graph = artifact({
      id: "a3",
      type: "application/vnd.knowledge-graph",
      title: "Crates",
      content: '{"nodes":[]}',
    });
    const messages = [
      message({
        role: "user",
        author: { id: "u1", name: "Ada" },
        content: [
          { type: "text", text: "How do I sort a Vec?\n" },
          {
            type: "attachment",
            artifactId: "f1",
            name: "notes.txt",
            contentType: "text/plain",
            size: 2048,
            kind: "text",
          },
        ],
      }),
      message({
        role: "assistant",
        content: [
          { type: "reasoning", text: "They want the standard library." },
          {
            type: "tool_call",
            callId: "t1",
            server: "docs",
            tool: "search",
            arguments: {},
            status: "done",
            summary: "3 results",
          },
          { type: "text", text: "Use `sort`:" },
          {
            type: "artifact",
            artifactId: "a1",
            artifactType: "application/vnd.ant.code",
            title: "sort.rs",
          },
          { type: "artifact", artifactId: "a2", artifactType: "image/png", title: "Timings" },
          {
            type: "artifact",
            artifactId: "gone",
            artifactType: "text/markdown",
            title: "Old notes",
          },
        ],
      }),
      message({ role: "user", content: [{ type: "text", text: "And stable?" }] }),
      message({
        role: "assistant",
        status: "cancelled",
        content: [{ type: "text", text: "Stable sort" }],
      }),
    ].map((m, i) => ({ ...m, seq: i + 1 }));
    // Two messages a page, one artifact's text a read: the pieces join up all the same.
    const { from, reads } = source(messages, [code, chart, graph]);
    const markdown = await collect(markdownExport(from, { pageSize: 2, contentBatch: 1 }));
    expect(reads.pages).toBe(3);
    expect(reads.contents).toEqual([["a1"], ["a2"], ["gone"], ["a3"]]);
    expect(markdown).toBe(
      [
        "# Sorting in Rust",
        "",
        "_anthropic · claude-haiku-4-5 · started 2026-11-29 06:30 UTC · exported 2026-11-29 07:30 UTC_",
        "",
        "---",
        "",
        "### Ada · 2026-11-29 06:31 UTC",
        "",
        "How do I sort a Vec?",
        "",
        "- Attached: notes.txt (text/plain, 2 KiB)",
        "",
        "---",
        "",
        "### Assistant · 2026-11-29 06:31 UTC",
        "",
        "<details><summary>Reasoning</summary>",
        "",
        "They want the standard library.",
        "",
        "</details>",
        "",
        "- Tool `docs.search` (done): 3 results",
        "",
        "Use `sort`:",
        "",
        "**Artifact: sort.rs** (application/vnd.ant.code)",
        "",
        "````rust",
        "fn main() {",
        "    // ```not a fence```",
        "}",
        "````",
        "",
        "**Artifact: Timings per run** (image/png): image/png, download it from the app (`GET /api/artifacts/a2/download`).",
        "",
        "**Artifact: Old notes** (text/markdown): deleted since.",
        "",
        "---",
        "",
        "### User · 2026-11-29 06:31 UTC",
        "",
        "And stable?",
        "",
        "---",
        "",
        "### Assistant · 2026-11-29 06:31 UTC",
        "",
        "Stable sort",
        "",
        "_This answer was stopped before it was finished._",
        "",
        "---",
        "",
        "### Other artifacts of this conversation",
        "",
        "**Artifact: Crates** (application/vnd.knowledge-graph)",
        "",
        "```json",
        '{"nodes":[]}',
        "```",
        "",
      ].join("\n"),
    );
  });

  it("keeps hostile text inert for a viewer that renders HTML: no tag, image or script link", async () => {
    const hostile = [
      "<script>alert('script')</script>",
      "Inline <img src=x onerror=\"alert('img')\"> and <b onclick=alert(1)>bold</b>.",
      "![pixel](https://evil.example/p.png?leak=1) ![data](data:image/svg+xml,<svg onload=alert(1)>)",
      "[js](javascript:alert('js')) [ref][r] <javascript:alert('auto')> [ok](https://example.com)",
      "[r]: javascript:alert('ref')",
      "</details><img src=x onerror=alert('breakout')>",
      "`<img src=x>` in code stays code.",
      // What looks like code to a careless reader but is not to a Markdown parser.
      "\\`<img src=x onerror=alert('escaped tick')>`",
      "| `a | <img src=x onerror=alert('cell')> | b` |\n| - | - | - |",
      "``` a`b\n<img src=x onerror=alert('not a fence')>\n```",
      "[a\nb]: javascript:alert('two-line label')\n\n[x][a b] [^1]\n\n[^1]: A footnote.",
    ].join("\n\n");
    const notes = artifact({
      id: "m1",
      type: "text/markdown",
      title: "<img src=x onerror=alert('title')>",
      content: hostile,
    });
    const messages = [
      message({
        role: "user",
        author: { id: "u2", name: "<svg onload=alert('name')>" },
        content: [
          { type: "text", text: hostile },
          {
            type: "attachment",
            artifactId: "f9",
            name: "<img src=x onerror=alert('file')>.txt",
            contentType: "text/plain",
            size: 3,
            kind: "text",
          },
        ],
      }),
      message({
        seq: 2,
        role: "assistant",
        content: [
          { type: "reasoning", text: hostile },
          {
            type: "tool_call",
            callId: "t9",
            server: "evil",
            tool: "render",
            arguments: {},
            status: "done",
            summary: "<iframe src=https://evil.example></iframe> ![x](https://evil.example/x.png)",
          },
          { type: "text", text: hostile },
          { type: "artifact", artifactId: "m1", artifactType: "text/markdown", title: notes.title },
        ],
      }),
    ];
    const exported = await collect(markdownExport(source(messages, [notes]).from));
    const tree = fromMarkdown(exported, {
      extensions: [gfm()],
      mdastExtensions: [gfmFromMarkdown()],
    });
    const live: string[] = [];
    const visit = (node: Nodes) => {
      // Our own folding of the reasoning is the only HTML.
      if (node.type === "html" && /<(?!\/?(details|summary)>)/.test(node.value))
        live.push(node.value);
      if (node.type === "image" || node.type === "imageReference") live.push(`image ${node.alt}`);
      if (node.type === "link" && !/^(https:|mailto:)/.test(node.url) && node.url !== "")
        live.push(`link ${node.url}`);
      if (node.type === "definition" && !/^https:/.test(node.url))
        live.push(`definition ${node.url}`);
      if ("children" in node) node.children.forEach(visit);
    };
    visit(tree);
    expect(live).toEqual([]);
    // What was written is still there to read, and code stays code.
    expect(exported).toContain("alert('script')");
    expect(exported).toContain("https://evil.example/p.png?leak=1");
    expect(exported).toContain("`<img src=x>` in code stays code.");
    expect(exported).toContain("[ok](https://example.com)");
    expect(exported).toContain("[^1]: A footnote.");
  });

  it("as JSON is one document with every message and every artifact's text, however many pages", async () => {
    const notes = artifact({ id: "n1", type: "text/markdown", title: "Notes", content: "# hi" });
    const png = artifact({ id: "p1", type: "image/png", title: "Plot", contentType: "image/png" });
    const messages = Array.from({ length: 5 }, (_, i) =>
      message({
        seq: i + 1,
        role: i % 2 === 0 ? "user" : "assistant",
        content: [{ type: "text", text: `message ${i + 1}` }],
      }),
    );
    const { from } = source(messages, [notes, png]);
    const parsed = JSON.parse(await collect(jsonExport(from, { pageSize: 2 }))) as unknown;
    expect(parsed).toEqual({
      exportedAt: "2026-11-29T07:30:00.000Z",
      conversation,
      messages,
      artifacts: [notes, png],
    });
    const empty = source([], []).from;
    expect(JSON.parse(await collect(jsonExport(empty)))).toMatchObject({
      messages: [],
      artifacts: [],
    });
  });

  it("names the file after the title in any script, or after the id when the title has no letters", () => {
    expect(exportFileName({ id: "c1", title: "Sorting in Rust?" }, "md")).toBe(
      "Sorting-in-Rust.md",
    );
    expect(exportFileName({ id: "c1", title: "Überblick: Q3 / 2026" }, "json")).toBe(
      "Überblick-Q3-2026.json",
    );
    expect(exportFileName({ id: "c1", title: "???" }, "md")).toBe("conversation-c1.md");
  });
});
