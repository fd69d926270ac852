import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { markdownBlocks } from "./markdown-blocks";
import { MarkdownRenderer } from "./MarkdownRenderer";

const render = (text: string) => renderToStaticMarkup(<MarkdownRenderer text={text} />);
// A reference definition (which renders nothing) keeps a text in one block: the render it
// would have had before it was cut into blocks.
const renderWhole = (text: string) => render(`${text}\n\n[unused]: https://example.com`);

const ANSWER = `## Results

The **effect** held; see \`effect_size\` and $p < 0.05$.

$$
\\sigma^2 = 1

\\mu = 0
$$

- one

- two
  with more

  and a second paragraph
- three

1. first
2. second

| trial | result |
| --- | --- |
| T-1 | benefit |

\`\`\`ts
const a = 1;

const b = 2;
\`\`\`

> quoted

> quoted again

    indented code

Last paragraph.`;

describe("markdown blocks", () => {
  it("cuts an answer where a new block must start, and nowhere inside a list, code or math", () => {
    expect(markdownBlocks(ANSWER)).toEqual([
      "## Results",
      "The **effect** held; see `effect_size` and $p < 0.05$.",
      "$$\n\\sigma^2 = 1\n\n\\mu = 0\n$$",
      // A list marker after a list may continue it (a loose list): no cut there.
      "- one\n\n- two\n  with more\n\n  and a second paragraph\n- three\n\n1. first\n2. second",
      "| trial | result |\n| --- | --- |\n| T-1 | benefit |",
      "```ts\nconst a = 1;\n\nconst b = 2;\n```",
      "> quoted",
      // The last line has no newline yet (it may still be written): it stays with its block.
      "> quoted again\n\n    indented code\n\nLast paragraph.",
    ]);
    expect(markdownBlocks(`${ANSWER}\n`).slice(-2)).toEqual([
      "> quoted again\n\n    indented code",
      "Last paragraph.",
    ]);
  });

  it("renders an answer block by block exactly as it renders whole", () => {
    expect(render(ANSWER)).toBe(renderWhole(ANSWER));
  });

  it("keeps every finished block of a streaming answer the same string as the answer grows", () => {
    const final = markdownBlocks(ANSWER);
    for (let end = 1; end <= ANSWER.length; end++) {
      const blocks = markdownBlocks(ANSWER.slice(0, end));
      // All but the last are final; the last is the one the delta is still writing.
      expect(blocks.slice(0, -1)).toEqual(final.slice(0, blocks.length - 1));
    }
  });

  it("keeps a text with footnotes or link definitions whole: they reach across blocks", () => {
    const text =
      "A claim.[^1]\n\nMore, see [the paper][p].\n\n[^1]: The source.\n\n[p]: https://x.org";
    expect(markdownBlocks(text)).toEqual([text]);
  });

  it("keeps one-line display math from opening a block that swallows the rest", () => {
    const text = "$$x = 1$$\n\nAfter.\n";
    expect(markdownBlocks(text)).toEqual(["$$x = 1$$", "After."]);
    expect(render(text)).toBe(renderWhole(text));
  });
});
