import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { typeset } from "./MathFormula";

it("typesets a formula once and reuses its elements on every later render", () => {
  const first = typeset("\\sum_{k=1}^{n} k^{reuse}", true);
  expect(typeset("\\sum_{k=1}^{n} k^{reuse}", true)).toBe(first);
  expect(typeset("\\sum_{k=1}^{n} k^{reuse}", false)).not.toBe(first);
  expect(renderToStaticMarkup(<>{first}</>)).toContain('class="katex-display"');
});

it("shows a formula too long to typeset as its TeX, at once, instead of freezing the page", () => {
  const tex = "x+".repeat(10_000) + "x";
  for (const display of [true, false]) {
    const html = renderToStaticMarkup(<>{typeset(tex, display)}</>);
    expect(html).not.toContain("katex");
    expect(html).toContain("x+x+x+");
    expect(html).toContain("A formula too long to typeset (20,001 characters), as TeX");
  }
  // An ordinary formula is still typeset.
  expect(renderToStaticMarkup(<>{typeset("x+".repeat(100) + "x", true)}</>)).toContain("katex");
});

it("renders a KaTeX error in place", () => {
  const html = renderToStaticMarkup(<>{typeset("\\frac{1}{", false)}</>);
  expect(html).toContain("katex-error");
  expect(html).toContain("\\frac{1}{");
});
