// The file name a downloaded artifact gets, the same from the web client's buttons and the API's
// download route: its title's letters and digits (any script), and the extension its code
// language expects.
const LANGUAGE_EXTENSIONS: Record<string, string> = {
  python: "py",
  py: "py",
  typescript: "ts",
  ts: "ts",
  tsx: "tsx",
  javascript: "js",
  js: "js",
  jsx: "jsx",
  json: "json",
  sql: "sql",
  r: "r",
  sh: "sh",
  bash: "sh",
  shell: "sh",
  zsh: "sh",
  html: "html",
  css: "css",
  rust: "rs",
  rs: "rs",
  go: "go",
  golang: "go",
  java: "java",
  kotlin: "kt",
  swift: "swift",
  c: "c",
  cpp: "cpp",
  "c++": "cpp",
  csharp: "cs",
  "c#": "cs",
  ruby: "rb",
  php: "php",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  xml: "xml",
  markdown: "md",
  md: "md",
  julia: "jl",
  matlab: "m",
  scala: "scala",
  perl: "pl",
  lua: "lua",
  haskell: "hs",
  dockerfile: "dockerfile",
  latex: "tex",
  tex: "tex",
  csv: "csv",
};

/** The extension of code in `language`, if it is one we know. */
export const languageExtension = (language: string | null | undefined): string | undefined =>
  LANGUAGE_EXTENSIONS[(language ?? "").trim().toLowerCase()];

/**
 * A safe file name from a title: letters and digits of any script (so "Анализ" or "数据" keep
 * their name), never starting with a dot, with the extension added once.
 */
export function safeFileName(title: string, extension: string): string {
  const cleaned = title.replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, "_");
  // Cut by code points so a long title never ends in half a character.
  const base =
    Array.from(cleaned.replace(/^[_.]+/, ""))
      .slice(0, 80)
      .join("")
      .replace(/[_.]+$/, "") || "artifact";
  return base.toLowerCase().endsWith(`.${extension}`) ? base : `${base}.${extension}`;
}
