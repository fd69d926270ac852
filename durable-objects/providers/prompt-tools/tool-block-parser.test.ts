import { describe, expect, it } from "vitest";
import { ToolBlockParser } from "./tool-block-parser";

function parseInChunks(text: string, size: number) {
  const parser = new ToolBlockParser();
  const events = [];
  for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
  events.push(...parser.end());
  const shown = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("");
  const calls = events.flatMap((e) => (e.type === "tool_call" ? [e] : []));
  return { shown, calls };
}

const ANSWER =
  "Let me look that up.\n```tool_call\n" +
  '{"name": "lit__search", "arguments": {"query": "asthma trials", "limit": 5}}\n' +
  "```\nI will wait for the result.";

describe("fenced tool-call blocks in streamed text", () => {
  it.each([1, 2, 3, 7, 500])("finds a block split across chunks of %i characters", (size) => {
    const { shown, calls } = parseInChunks(ANSWER, size);
    expect(shown).toBe("Let me look that up.\nI will wait for the result.");
    expect(calls).toMatchObject([
      { name: "lit__search", arguments: { query: "asthma trials", limit: 5 } },
    ]);
    expect(calls[0]?.argumentsError).toBeUndefined();
  });

  it("repairs broken JSON inside a block, and reads a block left open at the end", () => {
    const broken = "```json:mcp\n{name: 'kb__lookup', arguments: {q: 'x',}}\n```";
    expect(parseInChunks(broken, 4).calls).toMatchObject([
      { name: "kb__lookup", arguments: { q: "x" } },
    ]);
    const open = 'Checking.\n```tool_call\n{"name": "kb__lookup", "arguments": {"q": "y"';
    expect(parseInChunks(open, 5)).toMatchObject({
      shown: "Checking.\n",
      calls: [{ name: "kb__lookup", arguments: { q: "y" } }],
    });
  });

  it("reports a block without a tool name, and leaves other code blocks as text", () => {
    const { calls } = parseInChunks('```tool_call\n{"arguments": {}}\n```', 3);
    expect(calls[0]?.argumentsError).toContain('{"name": "<tool>"');
    const code = "Here:\n```python\nprint('hi')\n```\nDone.";
    expect(parseInChunks(code, 2)).toEqual({ shown: code, calls: [] });
  });

  it("takes two blocks in one answer, in order", () => {
    const two =
      '```tool_call\n{"name": "a__one", "arguments": {}}\n```\n' +
      '```tool_call\n{"name": "b__two", "arguments": {"n": 2}}\n```';
    expect(parseInChunks(two, 6).calls.map((c) => c.name)).toEqual(["a__one", "b__two"]);
  });
});
