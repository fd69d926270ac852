import { describe, expect, it } from "vitest";
import { processToolResult } from "./tool-results";
import { callKey } from "./call-key";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("tool results become model input, a summary and artifacts", () => {
  it("text stays text; images become binary artifacts and are shown to the model", () => {
    const r = processToolResult(
      {
        content: [
          { type: "text", text: "Found 3 items" },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
      },
      "render",
    );
    expect(r.summary).toBe("Found 3 items (1 artifact)");
    expect(r.forModel.map((p) => p.type)).toEqual(["text", "image"]);
    expect(r.artifacts[0]).toMatchObject({ type: "image/png", contentType: "image/png" });
    expect(r.artifacts[0]?.bytes?.[1]).toBe(0x50); // "P" of PNG
  });

  it("an image or audio whose data is not base64 is named as unreadable, not silently dropped", () => {
    const r = processToolResult(
      {
        content: [
          { type: "image", data: "%%% not base64 %%%", mimeType: "image/png" },
          { type: "audio", mimeType: "audio/mpeg" },
        ],
      },
      "render",
    );
    expect(r.artifacts).toEqual([]);
    expect(r.forModel).toEqual([
      {
        type: "text",
        text: "[image image/png that could not be read: its data is missing or not base64]",
      },
      {
        type: "text",
        text: "[audio audio/mpeg that could not be read: its data is missing or not base64]",
      },
    ]);
    expect(r.summary).toBe(
      "[image image/png that could not be read: its data is missing or not base64]",
    );
  });

  it("an image whose bytes are not what its mimeType says never reaches the model as an image", () => {
    const svg = btoa('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const r = processToolResult(
      {
        content: [
          { type: "image", data: svg, mimeType: "image/png" },
          { type: "image", data: PNG, mimeType: "image/jpeg" },
        ],
      },
      "render",
    );
    // A provider answers 400 to an image that is not what it says, and the answer fails: the
    // SVG is a note for the model, the PNG goes as the PNG it is.
    expect(r.forModel).toEqual([
      {
        type: "text",
        text: "[image said to be image/png but not one, 71 bytes, shown to the user as an artifact]",
      },
      { type: "image", mediaType: "image/png", data: PNG },
    ]);
    expect(r.artifacts.map((a) => a.contentType)).toEqual([
      "application/octet-stream",
      "image/png",
    ]);
  });

  it("a mimeType that is no media type is not repeated (it would end up in a header)", () => {
    const r = processToolResult(
      {
        content: [
          { type: "image", data: btoa("not an image"), mimeType: "text/html\r\nSet-Cookie: a=b" },
          {
            type: "resource",
            resource: { uri: "x://blob", blob: btoa("bytes"), mimeType: "a b/c" },
          },
        ],
      },
      "render",
    );
    expect(r.artifacts.map((a) => [a.type, a.contentType])).toEqual([
      ["application/octet-stream", "application/octet-stream"],
      ["application/octet-stream", "application/octet-stream"],
    ]);
    expect(() => new Headers({ "content-type": r.artifacts[0]!.contentType! })).not.toThrow();
  });

  it("structuredContent with nodes and links is a knowledge graph; other structured data a JSON artifact", () => {
    const graph = processToolResult(
      { content: [], structuredContent: { nodes: [{ id: "a" }], links: [] } },
      "graph",
    );
    expect(graph.graphs).toHaveLength(1);
    expect(graph.artifacts).toHaveLength(0);
    const data = processToolResult(
      { content: [{ type: "text", text: '{"a":1}' }], structuredContent: { a: 1 } },
      "data",
    );
    expect(data.artifacts[0]).toMatchObject({ type: "application/json", title: "Data from data" });
  });

  it("embedded resources, resource links and the reference's bibliography become artifacts", () => {
    const r = processToolResult(
      {
        content: [
          {
            type: "resource",
            resource: {
              uri: "file:///notes/readme.md",
              mimeType: "text/markdown",
              text: "# Notes",
            },
          },
          { type: "resource_link", uri: "https://example.org/x", name: "x", description: "a link" },
          {
            type: "text",
            text: JSON.stringify({ bibliography: [{ pmid: "1", title: "A paper" }] }),
          },
        ],
      },
      "search",
    );
    expect(r.artifacts.map((a) => a.type)).toEqual([
      "text/markdown",
      "application/json",
      "application/vnd.bibliography",
    ]);
    expect(r.forModel[1]).toMatchObject({
      type: "text",
      text: expect.stringContaining("https://example.org/x"),
    });
  });

  it("an embedded resource with no title or name is named from its address", () => {
    const titles = [
      "file:///page.html",
      "https://example.org/",
      "s3://b/2024/07/31",
      "x:/a%20b",
      "",
    ]
      .map((uri) => ({ type: "resource", resource: { uri, text: "t" } }))
      .map((item) => processToolResult({ content: [item] }, "fetch").artifacts[0]?.title);
    expect(titles).toEqual([
      "page.html",
      "example.org",
      "2024/07/31",
      "a b",
      "Resource from fetch",
    ]);
  });

  it("isError is kept, and a result that is not MCP is an error for the model", () => {
    expect(
      processToolResult({ content: [{ type: "text", text: "bad input" }], isError: true }, "t")
        .isError,
    ).toBe(true);
    const garbage = processToolResult({ content: "nope" }, "t");
    expect(garbage.isError).toBe(true);
    expect(garbage.summary).toContain("invalid");
  });
});

describe("call identity", () => {
  it("ignores key order and undefined values, but not values", () => {
    expect(callKey("s", "t", { a: 1, b: { c: 2, d: 3 } })).toBe(
      callKey("s", "t", { b: { d: 3, c: 2 }, a: 1, z: undefined }),
    );
    expect(callKey("s", "t", { a: 1 })).not.toBe(callKey("s", "t", { a: 2 }));
    expect(callKey("s", "t", { a: 1 })).not.toBe(callKey("s2", "t", { a: 1 }));
  });
});
