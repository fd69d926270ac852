import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { loadHighlighter } from "./CodeBlock";
import { hasMarkdownSyntax } from "./has-markdown-syntax";
import { Markdown } from "./Markdown";
import { MarkdownRenderer } from "./MarkdownRenderer";

// Markdown loads its renderer lazily, which static rendering never resolves: the renderer is
// tested directly, and Markdown for what it shows before and without it.
const render = (text: string) => renderToStaticMarkup(<MarkdownRenderer text={text} />);

describe("Markdown", () => {
  it("shows text without markdown syntax as it is", () => {
    expect(renderToStaticMarkup(<Markdown text={"Hello.\nTwo lines."} />)).toBe(
      '<div class="markdown text">Hello.\nTwo lines.</div>',
    );
  });

  it("shows the plain text, never markup, while the renderer loads", () => {
    const html = renderToStaticMarkup(<Markdown text={"**bold** <script>x()</script>"} />);
    expect(html).toContain("**bold** &lt;script&gt;x()&lt;/script&gt;");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<strong>");
  });

  it("sends any text that may hold syntax to the renderer", () => {
    for (const text of ["**a**", "`a`", "# a", "> a", "- a", "1. a", "a | b", "[a](b)", "$x$"]) {
      expect(hasMarkdownSyntax(text), text).toBe(true);
    }
    for (const text of ["a\n===", "see https://example.com", "www.example.com", "me@example.com"]) {
      expect(hasMarkdownSyntax(text), text).toBe(true);
    }
    expect(hasMarkdownSyntax("Sure, here it is. It's 3 - 2 = 1, isn't it?")).toBe(false);
  });
});

describe("the renderer", () => {
  it("renders GFM: tables, strikethrough, task lists and autolinks", () => {
    const html = render(
      "| a | b |\n| - | -: |\n| 1 | 2 |\n\n~~gone~~\n\n- [x] done\n- [ ] todo\n\nsee www.example.com",
    );
    expect(html).toContain("<table>");
    expect(html).toMatch(/<td>1<\/td><td style="text-align:right">2<\/td>/);
    expect(html).toContain("<del>gone</del>");
    expect(html).toMatch(/<input type="checkbox" disabled="" checked=""\/> done/);
    expect(html).toContain('<a href="http://www.example.com"');
  });

  it("renders inline and display math with KaTeX", () => {
    const inline = render("Euler: $e^{i\\pi} + 1 = 0$.");
    expect(inline).toContain('class="katex"');
    expect(inline).toContain("<math");
    expect(render("$$\n\\int_0^1 x\\,dx\n$$")).toContain('class="katex-display"');
    // Models often write display math on one line, between paragraphs.
    expect(render("Area:\n$$\\int_0^1 x\\,dx$$\nDone.")).toContain('class="katex-display"');
  });

  it("typesets \\( … \\) and \\[ … \\] math and keeps amounts of money as text", () => {
    expect(render("Euler: \\(e^{i\\pi} + 1 = 0\\).")).toContain("<math");
    expect(render("\\[\n\\int_0^1 x\\,dx\n\\]")).toContain('class="katex-display"');
    const money = render("It costs $5 and $10 **now**.");
    expect(money).not.toContain("katex");
    expect(money).toContain("It costs $5 and $10 <strong>now</strong>.");
  });

  it("gives each message's footnotes their own ids", () => {
    const two = renderToStaticMarkup(
      <>
        <MarkdownRenderer text={"A claim.[^1]\n\n[^1]: Source one."} />
        <MarkdownRenderer text={"Another.[^1]\n\n[^1]: Source two."} />
      </>,
    );
    const ids = [...two.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect(new Set(ids).size).toBe(ids.length);
    // Each reference still points at its own footnote.
    for (const href of [...two.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]))
      expect(ids).toContain(href);
    for (const label of [...two.matchAll(/aria-describedby="([^"]+)"/g)].map((m) => m[1]))
      expect(ids).toContain(label);
  });

  it("shows broken math as an error in place, not as an exception", () => {
    const html = render("bad: $\\frac{1}{$ and on");
    expect(html).toContain('<span class="katex-error"');
    expect(html).toContain("and on");
  });

  it("renders a fenced block through CodeBlock, highlighted, and inline code as <code>", async () => {
    await loadHighlighter();
    const html = render("Run `main()`:\n\n```python\ndef main():\n    return 42\n```");
    expect(html).toContain("<code>main()</code>");
    expect(html).toContain('<pre class="code-block"><code data-language="python" class="hljs">');
    expect(html).toContain('<span class="hljs-keyword">def</span>');
    expect(html).toContain('aria-label="Copy code"');
  });

  it("opens web links in a new tab without opener, referrer or endorsement", () => {
    const html = render("[docs](https://example.com/a) and [mail](mailto:a@example.com)");
    expect(html).toContain(
      '<a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow">docs</a>',
    );
    expect(html).toContain('<a href="mailto:a@example.com">mail</a>');
  });

  it("renders an image served by our origin", () => {
    expect(render("![chart](/api/artifacts/abc/download)")).toContain(
      '<img src="/api/artifacts/abc/download" alt="chart" loading="lazy"/>',
    );
  });
});

// Model output and tool results are hostile: none of this may become active markup, a script
// URL or a request to another host.
const HOSTILE = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "[click](javascript:alert(1))",
  "[click2](JavaScript:alert(1))",
  "[d](data:text/html,<script>alert(1)</script>)",
  "[v](vbscript:msgbox(1))",
  "[pr](//evil.example/x)",
  "<javascript:alert(1)>",
  "![x](https://evil.example/pixel.png)",
  "![x](//evil.example/p.png)",
  "![x](data:image/png;base64,iVBORw0KGgo=)",
  "![x](blob:https://app.example/1)",
  "![x](/\\evil.example/p.png)",
  "<svg onload=alert(1)>",
  '<a href="javascript:alert(1)">x</a>',
  "$\\href{javascript:alert(1)}{x}$",
  "$\\url{javascript:alert(1)}$",
  "$\\htmlClass{x}{y}\\htmlStyle{background:url(https://evil.example/p)}{z}$",
  '<iframe src="https://evil.example">',
  "[ref]\n\n[ref]: javascript:alert(1)",
  "[Open the report](/#token=tc_someone_else)",
  "![ref][img]\n\n[img]: https://evil.example/q.png",
];

function expectInert(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<iframe/i);
  expect(html).not.toMatch(/<svg/i);
  expect(html).not.toMatch(/<[a-z][^>]*\son\w+\s*=/i);
  expect(html).not.toMatch(/(?:href|src)="\s*(?:javascript|vbscript|data|blob):/i);
  expect(html).not.toMatch(/(?:href|src)="\s*(?:\/\/|\/\\)/);
  // An image only from a path on our origin, never from another host.
  expect(html).not.toMatch(/<img(?![^>]*src="\/(?![/\\])[^"]*")[^>]*>/);
  expect(html).not.toMatch(/style="[^"]*url\(/i);
  // No start link: following it would sign the reader in as the token's user.
  expect(html).not.toMatch(/href="[^"]*#[^"]*token=/i);
}

describe("hostile input", () => {
  for (const text of HOSTILE) {
    it(`stays inert: ${text}`, () => expectInert(render(text)));
  }

  it("stays inert all together", () => expectInert(render(HOSTILE.join("\n\n"))));

  it("shows HTML as text", () => {
    expect(render("<script>alert(1)</script>")).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("keeps a blocked link's words as plain text", () => {
    expect(render("[click](javascript:alert(1)) here")).toBe(
      '<div class="markdown markdown-body"><p><span>click</span> here</p></div>',
    );
  });

  it("names an outside image instead of loading it", () => {
    const html = render("![x](https://evil.example/pixel.png)");
    expect(html).not.toContain("<img");
    expect(html).toContain("[image not loaded: x]");
    expect(html).toContain("https://evil.example/pixel.png");
  });

  it("does not let KaTeX's \\href make a link", () => {
    expect(render("$\\href{https://example.com}{x}$")).not.toMatch(/<a[\s>]/);
  });
});
