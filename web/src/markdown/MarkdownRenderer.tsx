import "katex/dist/katex.min.css";
import type { Element } from "hast";
import { memo, type ReactNode } from "react";
import ReactMarkdown, { type Components, type Options, type UrlTransform } from "react-markdown";
import rehypeKatex from "rehype-katex";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { CodeBlock } from "./CodeBlock";
import "./markdown.css";
import { rehypeGuardUrls } from "./rehype-guard-urls";
import { isSameOriginImage, linkKind } from "./safe-urls";

// The markdown renderer proper: GFM (tables, strikethrough, task lists, autolinks, footnotes)
// and KaTeX math. Its own chunk, loaded by Markdown on first use, because react-markdown and
// KaTeX weigh more than the rest of the client.
//
// Model output and tool results are hostile. Raw HTML is never rendered: react-markdown shows it
// as text (there is no rehype-raw here). URLs pass rehypeGuardUrls and then guardUrl, so a
// javascript:/data: link or an outside image is stopped even if one of the two were lost.

// trust: false keeps \href, \url, \includegraphics and \html* from making links, images or
// attributes; maxSize stops \rule or \kern from covering the page; errors render in place.
const KATEX_OPTIONS = { trust: false, strict: "ignore", maxSize: 20, maxExpand: 1000 } as const;

type Plugins = NonNullable<Options["remarkPlugins"]>;

const remarkPlugins: Plugins = [remarkGfm, remarkMath];
const rehypePlugins: Plugins = [[rehypeKatex, KATEX_OPTIONS], rehypeGuardUrls];
const components: Components = { pre: CodeFence };

export const MarkdownRenderer = memo(function MarkdownRenderer({ text }: { text: string }) {
  return (
    <div className="markdown markdown-body">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={guardUrl}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

export default MarkdownRenderer;

// The last gate for every URL attribute: a link's href and an image's src by the same rules as
// rehypeGuardUrls, and no other URL at all.
const guardUrl: UrlTransform = (url, key, node) => {
  if (node.tagName === "a" && key === "href") return linkKind(url) ? url : null;
  if (node.tagName === "img" && key === "src") return isSameOriginImage(url) ? url : null;
  return null;
};

// A fenced block is <pre><code class="language-x">; it becomes a CodeBlock. Inline code stays
// a plain <code>.
function CodeFence({ node, children }: { node?: Element | undefined; children?: ReactNode }) {
  const code = node?.children.length === 1 ? node.children[0] : undefined;
  if (code?.type !== "element" || code.tagName !== "code") return <pre>{children}</pre>;
  return <CodeBlock code={textOf(code).replace(/\n$/, "")} language={languageOf(code)} />;
}

function textOf(element: Element): string {
  return element.children
    .map((child) =>
      child.type === "text" ? child.value : child.type === "element" ? textOf(child) : "",
    )
    .join("");
}

function languageOf(code: Element): string | null {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) {
    if (typeof name === "string" && name.startsWith("language-")) return name.slice(9) || null;
  }
  return null;
}
