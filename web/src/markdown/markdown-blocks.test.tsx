import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { markdownBlocks } from "./markdown-blocks";
import type * as Blocks from "./markdown-blocks";
import { MarkdownRenderer } from "./MarkdownRenderer";

// The renderer as it is, and (with `whole` set) as it was before texts were cut into blocks.
const whole = vi.hoisted(() => ({ on: false }));
vi.mock("./markdown-blocks", async (original) => {
  const { markdownBlocks } = await original<typeof Blocks>();
  return { markdownBlocks: (text: string) => (whole.on ? [text] : markdownBlocks(text)) };
});

const render = (text: string) => renderToStaticMarkup(<MarkdownRenderer text={text} />);
const renderWhole = (text: string) => {
  whole.on = true;
  try {
    return render(text);
  } finally {
    whole.on = false;
  }
};

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
    // Nor is a block cut after indented code, which the line after a blank could continue.
    expect(markdownBlocks(`${ANSWER}\n`)).toEqual(markdownBlocks(ANSWER));
    expect(markdownBlocks("Para.\n\nLast.\n")).toEqual(["Para.", "Last."]);
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

  it("keeps a text with footnotes, link definitions or HTML whole: they reach across blocks", () => {
    const text =
      "A claim.[^1]\n\nMore, see [the paper][p].\n\n[^1]: The source.\n\n[p]: https://x.org";
    expect(markdownBlocks(text)).toEqual([text]);
    // An HTML block runs to a blank line: the `$$` in it opens no math.
    const html = "</div>\n$$\n\na\n\nb\n";
    expect(markdownBlocks(html)).toEqual([html]);
  });

  it("renders any mix of blocks alike cut and whole", () => {
    const snippets = [
      ...["# Title", "Title\n===", "para *em* **b** `c` $x^2$", "a\\", "line  \nbreak", "---"],
      ...["- a\n- b", "- a\n\n- b", "1. a\n2. b", "3) c", "* star", "- [ ] task", "- a\nlazy"],
      ...["- a\n\n  more\n\n      code in item", "> q\n> r", "> q\n\n> r", "\t tab code"],
      ...["```js\nx\n\ny\n```", "~~~\nz\n~~~", "````\n```\n````", "    code\n\n    more"],
      ...["$$\na\n\nb\n$$", "$$a$$", "\\[ x \\]", "text \\( y \\) more", "$5 and $10"],
      ...["| a | b |\n| - | - |\n| 1 | 2 |", "<div>\n\nhtml\n</div>", "http://x.org"],
    ];
    // The same texts every run (a fixed seed): 300 mixes, each with and without a last newline.
    let seed = 7;
    const pick = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let k = 0; k < 300; k++) {
      let text = snippets[pick(snippets.length)]!;
      for (let n = pick(6); n >= 0; n--)
        text += ["\n", "\n\n", "\n\n\n"][pick(3)]! + snippets[pick(snippets.length)]!;
      for (const t of [text, `${text}\n`])
        expect(render(t), JSON.stringify(t)).toBe(renderWhole(t));
    }
    // 1,200 renders: about 3 s alone, more on a loaded machine (5 s is vitest's default).
  }, 30_000);

  it("keeps one-line display math from opening a block that swallows the rest", () => {
    const text = "$$x = 1$$\n\nAfter.\n";
    expect(markdownBlocks(text)).toEqual(["$$x = 1$$", "After."]);
    expect(render(text)).toBe(renderWhole(text));
  });
});
