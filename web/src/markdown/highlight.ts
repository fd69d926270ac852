import { toJsxRuntime } from "hast-util-to-jsx-runtime";
import { common, createLowlight } from "lowlight";
import type { ReactNode } from "react";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";
import "./highlight.css";

// Syntax highlighting for code blocks: lowlight's common languages (highlight.js grammars,
// which already know aliases such as py, js, ts, sh, yml), turned into React elements, never
// into HTML strings. Loaded on demand by CodeBlock: lowlight is most of this chunk's size.

const lowlight = createLowlight(common);

// Names models write that highlight.js does not know, mapped to a grammar we have.
const EXTRA_ALIASES: Record<string, string> = {
  postgres: "sql",
  postgresql: "sql",
  psql: "sql",
  mysql: "sql",
  sqlite: "sql",
  jsonl: "json",
  ndjson: "json",
  dotenv: "ini",
  env: "ini",
  vue: "xml",
  svelte: "xml",
};

const PLAIN = new Set(["text", "txt", "plain", "plaintext"]);

// Guessing the language tries every grammar, about 20 ms a kilobyte, and runs again on each
// streamed delta: only short blocks are worth it.
export const AUTO_DETECT_MAX_CHARS = 1000;

export type Highlighted = { nodes: ReactNode; language: string };

// Highlighted code, or null when it stays plain (a language we lack, a long unlabelled block).
export function highlight(code: string, language: string | null | undefined): Highlighted | null {
  const name = language?.trim().toLowerCase() ?? "";
  if (PLAIN.has(name)) return null;
  if (name) {
    const grammar = EXTRA_ALIASES[name] ?? name;
    // A named language we lack stays plain rather than guessed: the guess is often wrong.
    if (!lowlight.registered(grammar)) return null;
    return attempt(() => lowlight.highlight(grammar, code));
  }
  if (code.length > AUTO_DETECT_MAX_CHARS) return null;
  return attempt(() => {
    const tree = lowlight.highlightAuto(code, { subset: AUTO_DETECT_SUBSET });
    return (tree.data?.relevance ?? 0) >= MIN_AUTO_RELEVANCE ? tree : null;
  });
}

// highlight.js guesses poorly among all its grammars (Python often scores as CSS); among the
// languages chat answers mostly hold it does better, and a weak guess stays plain.
const AUTO_DETECT_SUBSET = [
  "bash",
  "c",
  "cpp",
  "css",
  "go",
  "java",
  "javascript",
  "json",
  "python",
  "rust",
  "shell",
  "sql",
  "typescript",
  "xml",
  "yaml",
];
const MIN_AUTO_RELEVANCE = 3;

type Tree = ReturnType<typeof lowlight.highlight>;

// highlight.js throws on a broken grammar; the block then stays plain instead of breaking the
// answer around it.
function attempt(run: () => Tree | null): Highlighted | null {
  try {
    const tree = run();
    return tree ? render(tree) : null;
  } catch {
    return null;
  }
}

function render(tree: Tree): Highlighted | null {
  const language = tree.data?.language;
  if (!language) return null;
  return { nodes: toJsxRuntime(tree, { Fragment, jsx, jsxs }), language };
}
