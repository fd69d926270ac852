import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CodeBlock, loadHighlighter } from "./CodeBlock";
import { AUTO_DETECT_MAX_CHARS } from "./highlight";

// The highlighter's chunk loads after the first render: before it, a block is plain text.
describe("before the highlighter has loaded", () => {
  it("shows the code as plain text with its language and a Copy button", () => {
    const html = renderToStaticMarkup(<CodeBlock code={"x = 1\n"} language="python" />);
    expect(html).toContain('<pre class="code-block"><code data-language="python">x = 1\n</code>');
    expect(html).not.toContain("hljs");
    expect(html).toContain('aria-label="Copy code"');
    expect(html).toContain(">Copy</button>");
  });
});

describe("once the highlighter has loaded", () => {
  it("highlights a known language as spans with hljs classes", async () => {
    await loadHighlighter();
    const html = renderToStaticMarkup(
      <CodeBlock code={"def f(x):\n    return 1"} language="python" />,
    );
    expect(html).toContain('<code data-language="python" class="hljs">');
    expect(html).toContain('<span class="hljs-keyword">def</span>');
    expect(html).toContain('<span class="hljs-number">1</span>');
  });

  it("knows the short names models write (py, js, ts, sh, postgres)", async () => {
    await loadHighlighter();
    for (const language of ["py", "js", "ts", "sh", "postgres"]) {
      const html = renderToStaticMarkup(<CodeBlock code="return 1" language={language} />);
      expect(html, language).toContain("hljs-");
      expect(html, language).toContain(`data-language="${language}"`);
    }
  });

  it("keeps a language it lacks plain instead of guessing", async () => {
    await loadHighlighter();
    const html = renderToStaticMarkup(<CodeBlock code="graph TD; A-->B" language="mermaid" />);
    expect(html).not.toContain("hljs");
    expect(html).toContain(">mermaid</span>");
    expect(html).toContain("graph TD; A--&gt;B");
  });

  it("guesses the language of a short unlabelled block, not of a long one", async () => {
    await loadHighlighter();
    const snippet = "const response = await fetch(url);\nconsole.log(response.status);\n";
    expect(renderToStaticMarkup(<CodeBlock code={snippet} />)).toContain("hljs-keyword");
    const long = snippet.repeat(Math.ceil(AUTO_DETECT_MAX_CHARS / snippet.length) + 1);
    expect(renderToStaticMarkup(<CodeBlock code={long} />)).not.toContain("hljs");
  });

  it("shows markup in code as text", async () => {
    await loadHighlighter();
    const html = renderToStaticMarkup(
      <CodeBlock
        code={'<script>alert(1)</script><img src=x onerror="alert(1)">'}
        language="html"
      />,
    );
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;<span class="hljs-name">script</span>&gt;');
  });
});
