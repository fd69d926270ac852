import { lazy, memo, Suspense } from "react";
import { hasMarkdownSyntax } from "./has-markdown-syntax";

// Model output as markdown. The renderer (react-markdown, KaTeX) is a chunk of its own, loaded
// the first time some text needs it; until then, and for text without any markdown syntax, the
// text shows as it is, never as markup.

const MarkdownRenderer = lazy(() => import("./MarkdownRenderer"));

// Chat re-renders every message on each streamed delta: a message whose text did not change
// skips rendering.
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const plain = <div className="markdown text">{text}</div>;
  if (!hasMarkdownSyntax(text)) return plain;
  return (
    <Suspense fallback={plain}>
      <MarkdownRenderer text={text} />
    </Suspense>
  );
});
