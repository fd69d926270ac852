import type { Element } from "hast";
import { Fragment, memo, useId, useMemo, type ComponentProps } from "react";
import ReactMarkdown, {
  type Components,
  type ExtraProps,
  type Options,
  type UrlTransform,
} from "react-markdown";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { CodeBlock } from "./CodeBlock";
import "./markdown.css";
import { MathFormula } from "./MathFormula";
import { markdownBlocks } from "./markdown-blocks";
import { normalizeMath } from "./math-delimiters";
import { rehypeFootnoteLabel } from "./rehype-footnote-label";
import { rehypeGuardUrls } from "./rehype-guard-urls";
import { isSameOriginImage, linkKind } from "./safe-urls";

// The markdown renderer proper: GFM (tables, strikethrough, task lists, autolinks, footnotes)
// and KaTeX math. Its own chunk, loaded by Markdown on first use, because react-markdown and
// KaTeX weigh more than the rest of the client.
//
// Model output and tool results are hostile. Raw HTML is never rendered: react-markdown shows it
// as text (there is no rehype-raw here). URLs pass rehypeGuardUrls and then guardUrl, so a
// javascript:/data: link or an outside image is stopped even if one of the two were lost.

type Plugins = NonNullable<Options["remarkPlugins"]>;

const remarkPlugins: Plugins = [remarkGfm, remarkMath];
const rehypePlugins: Plugins = [rehypeGuardUrls];
const components: Components = { pre: Pre, code: Code };

export const MarkdownRenderer = memo(function MarkdownRenderer({ text }: { text: string }) {
  // Footnote ids (fn-1, fnref-1) must not repeat when several messages have footnotes.
  const id = useId().replace(/[^A-Za-z0-9_-]/g, "");
  const remarkRehypeOptions = useMemo(() => ({ clobberPrefix: `md${id}-` }), [id]);
  const rehypeWithLabel = useMemo<Plugins>(
    () => [...rehypePlugins, [rehypeFootnoteLabel, { prefix: `md${id}-` }]],
    [id],
  );
  // Block by block (markdown-blocks.ts): while an answer streams, only its last block changes.
  const blocks = useMemo(() => markdownBlocks(normalizeMath(text)), [text]);
  return (
    <div className="markdown markdown-body">
      {blocks.map((block, i) => (
        // The line break react-markdown puts between blocks: the same markup as one render.
        <Fragment key={i}>
          {i > 0 && "\n"}
          <MarkdownBlock text={block} rehype={rehypeWithLabel} remarkRehype={remarkRehypeOptions} />
        </Fragment>
      ))}
    </div>
  );
});

const MarkdownBlock = memo(function MarkdownBlock({
  text,
  rehype,
  remarkRehype,
}: {
  text: string;
  rehype: Plugins;
  remarkRehype: Options["remarkRehypeOptions"];
}) {
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehype}
      remarkRehypeOptions={remarkRehype}
      components={components}
      urlTransform={guardUrl}
    >
      {text}
    </ReactMarkdown>
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

// A block is <pre><code class="language-x">: display math (`$$…$$` or a ```math fence) is
// typeset, any other language becomes a CodeBlock.
function Pre({ node, children }: ComponentProps<"pre"> & ExtraProps) {
  const code = node?.children.length === 1 ? node.children[0] : undefined;
  if (code?.type !== "element" || code.tagName !== "code") return <pre>{children}</pre>;
  const language = languageOf(code);
  const text = textOf(code).replace(/\n$/, "");
  if (language === "math") return <MathFormula tex={text} display />;
  return <CodeBlock code={text} language={language} />;
}

// Inline code stays <code>, except `$…$` math, which remark-math hands over as code too.
function Code({ node, children, className }: ComponentProps<"code"> & ExtraProps) {
  if (node && classesOf(node).includes("math-inline")) {
    return <MathFormula tex={textOf(node)} display={false} />;
  }
  return <code className={className}>{children}</code>;
}

function textOf(element: Element): string {
  return element.children
    .map((child) =>
      child.type === "text" ? child.value : child.type === "element" ? textOf(child) : "",
    )
    .join("");
}

function classesOf(element: Element): string[] {
  const classes = element.properties.className;
  return Array.isArray(classes) ? classes.map(String) : [];
}

function languageOf(code: Element): string | null {
  const language = classesOf(code).find((name) => name.startsWith("language-"));
  return language?.slice("language-".length) || null;
}
