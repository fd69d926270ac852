import { memo, Suspense, useDeferredValue } from "react";
import { lazyNamed } from "../ui/lazy-named";
import { hasMarkdownSyntax } from "./has-markdown-syntax";

// Model output as markdown. The renderer (react-markdown, KaTeX) is a chunk of its own, loaded
// the first time some text needs it; until then, and for text without any markdown syntax, the
// text shows as it is, never as markup (and stays so if the chunk cannot be downloaded).

const Plain = ({ text }: { text: string }) => <div className="markdown text">{text}</div>;
const MarkdownRenderer = lazyNamed(() => import("./MarkdownRenderer"), "MarkdownRenderer", Plain);

// Chat re-renders every message on each streamed delta: a message whose text did not change
// skips rendering, and a long answer that renders slower than deltas arrive skips the texts it
// has fallen behind on instead of holding up typing and scrolling.
export const Markdown = memo(function Markdown({ text: latest }: { text: string }) {
  const text = useDeferredValue(latest);
  const plain = <Plain text={text} />;
  if (!hasMarkdownSyntax(text)) return plain;
  return (
    <Suspense fallback={plain}>
      <MarkdownRenderer text={text} />
    </Suspense>
  );
});
