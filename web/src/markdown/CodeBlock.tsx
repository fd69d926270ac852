import { memo, useEffect, useMemo, useState } from "react";
import "./code-block.css";
import type * as HighlightModule from "./highlight";

// A block of code with its language and a Copy button. It shows plain text at once and
// highlighted text once the highlighter's chunk has loaded (lowlight is too big for the first
// download); every block after that is highlighted from its first render.

type Highlighter = typeof HighlightModule;

let highlighter: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;

export function loadHighlighter(): Promise<Highlighter> {
  loading ??= import("./highlight").then(
    (module) => (highlighter = module),
    (error: unknown) => {
      loading = null; // a failed chunk download is tried again by the next block
      throw error;
    },
  );
  return loading;
}

// Memoised: while an answer streams, only its last block changes.
export const CodeBlock = memo(function CodeBlock({
  code,
  language,
}: {
  code: string;
  language?: string | null;
}) {
  const [ready, setReady] = useState(highlighter !== null);
  useEffect(() => {
    if (ready) return;
    let mounted = true;
    loadHighlighter().then(
      () => mounted && setReady(true),
      () => {}, // stays plain
    );
    return () => {
      mounted = false;
    };
  }, [ready]);

  // Highlighted again only when the code changes: the block being streamed.
  const highlighted = useMemo(
    () => (ready && highlighter ? highlighter.highlight(code, language) : null),
    [ready, code, language],
  );
  // A guessed language colours the block but is not named: the guess is too often wrong.
  const label = language || null;

  return (
    <div className="code-block-frame">
      <div className="code-block-bar">
        <span className="code-block-language">{label ?? "code"}</span>
        <CopyButton code={code} />
      </div>
      <pre className="code-block">
        <code data-language={label ?? undefined} className={highlighted ? "hljs" : undefined}>
          {highlighted ? highlighted.nodes : code}
        </code>
      </pre>
    </div>
  );
});

const COPY_WORDS = { idle: "Copy", copied: "Copied", failed: "Copy failed" } as const;

function CopyButton({ code }: { code: string }) {
  const [state, setState] = useState<keyof typeof COPY_WORDS>("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 1500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = () => {
    // Missing outside a secure context (plain http on another host than localhost).
    if (!navigator.clipboard) return setState("failed");
    navigator.clipboard.writeText(code).then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };

  return (
    <>
      <button type="button" className="code-block-copy" aria-label="Copy code" onClick={copy}>
        {COPY_WORDS[state]}
      </button>
      <span className="visually-hidden" role="status">
        {state === "idle" ? "" : COPY_WORDS[state]}
      </span>
    </>
  );
}
