import "katex/dist/katex.min.css";
import type { Root } from "hast";
import { toJsxRuntime } from "hast-util-to-jsx-runtime";
import { memo, type ReactNode } from "react";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";
import rehypeKatex from "rehype-katex";
import { rehypeGuardUrls } from "./rehype-guard-urls";

// One formula typeset by KaTeX, as React elements. A streamed answer is rendered again on every
// delta; typesetting (then parsing KaTeX's HTML and turning it into elements) costs a few
// milliseconds a formula, so each formula is typeset once and its elements are reused, and an
// unchanged formula is skipped by React altogether.

// trust: false keeps \href, \url, \includegraphics and \html* from making links, images or
// attributes; maxSize stops \rule or \kern from covering the page; errors render in place.
const KATEX_OPTIONS = { trust: false, strict: "ignore", maxSize: 20, maxExpand: 1000 } as const;

const typesetTree = rehypeKatex(KATEX_OPTIONS);
// Typesetting grows faster than the formula (10,000 characters take about a second, and a
// streamed formula is typeset again at every delta): a longer one, which no reader could take
// in as a formula anyway, is shown as its TeX.
export const MAX_TEX_CHARS = 3_000;
const MAX_CACHED = 500;
const cache = new Map<string, ReactNode>();

export const MathFormula = memo(function MathFormula(props: { tex: string; display: boolean }) {
  return typeset(props.tex, props.display);
});

// The formula's elements, the same object for the same source.
export function typeset(tex: string, display: boolean): ReactNode {
  const key = `${display ? "display" : "inline"}\n${tex}`;
  let elements = cache.get(key);
  if (elements === undefined) {
    elements = tex.length > MAX_TEX_CHARS ? source(tex, display) : render(tex, display);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, elements);
  }
  return elements;
}

function source(tex: string, display: boolean): ReactNode {
  const note = `A formula too long to typeset (${tex.length.toLocaleString("en")} characters), as TeX`;
  return display ? (
    <pre className="math-source" title={note}>
      <code>{tex}</code>
    </pre>
  ) : (
    <code className="math-source" title={note}>
      {tex}
    </code>
  );
}

// rehype-katex on a tree of just this formula, as remark-math hands it over: it knows KaTeX's
// failure modes and turns its HTML into a tree without innerHTML. The URL guard runs on the
// result as it does on the rest of the answer.
function render(tex: string, display: boolean): ReactNode {
  const tree: Root = {
    type: "root",
    children: [
      {
        type: "element",
        tagName: "code",
        properties: { className: ["language-math", display ? "math-display" : "math-inline"] },
        children: [{ type: "text", value: tex }],
      },
    ],
  };
  typesetTree(tree, { message: () => undefined } as never);
  rehypeGuardUrls()(tree);
  return toJsxRuntime(tree, { Fragment, jsx, jsxs, ignoreInvalidStyle: true });
}
