import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { typeset } from "./MathFormula";

it("typesets a formula once and reuses its elements on every later render", () => {
  const first = typeset("\\sum_{k=1}^{n} k^{reuse}", true);
  expect(typeset("\\sum_{k=1}^{n} k^{reuse}", true)).toBe(first);
  expect(typeset("\\sum_{k=1}^{n} k^{reuse}", false)).not.toBe(first);
  expect(renderToStaticMarkup(<>{first}</>)).toContain('class="katex-display"');
});

it("renders a KaTeX error in place", () => {
  const html = renderToStaticMarkup(<>{typeset("\\frac{1}{", false)}</>);
  expect(html).toContain("katex-error");
  expect(html).toContain("\\frac{1}{");
});
