// Exported Markdown is opened in other viewers (editors, wikis, notebooks), many of which render
// raw HTML and load images. Message text comes from models, tools and other members, so before
// it goes into the file it is made inert, outside code (fenced blocks and one-line code spans,
// kept as written):
// - `<` becomes `&lt;`: no raw HTML, no autolink to a script;
// - `![` becomes `!&#91;`: an image is its source text, nothing is fetched;
// - a link or a link definition to anything but https/http, mailto or a fragment loses its `]`
//   (`&#93;`), so it stays the text it was.
// Entities read the same in every viewer and, unlike a backslash, mean the same whatever
// precedes them. When in doubt a piece counts as prose: the worst is a visible `&lt;` in code.

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SAFE_DESTINATION = /^(?:https?:\/\/|mailto:|#)/i;

/** `text` as Markdown that no viewer runs or fetches anything from. */
export function inertMarkdown(text: string): string {
  const out: string[] = [];
  let prose: string[] = [];
  let fence: { char: string; length: number } | null = null;
  const flush = () => {
    if (prose.length > 0) out.push(...defuseProse(prose.join("\n")).split("\n"));
    prose = [];
  };
  for (const line of text.split("\n")) {
    if (fence) {
      out.push(line);
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
      if (close && close[0] === fence.char && close.length >= fence.length) fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    // A backtick fence's info string has no backtick (else the line is prose with code spans).
    if (open && !(open[1]![0] === "`" && open[2]!.includes("`"))) {
      flush();
      out.push(line);
      fence = { char: open[1]![0]!, length: open[1]!.length };
      continue;
    }
    prose.push(line);
  }
  flush();
  return out.join("\n");
}

/** Prose with its one-line code spans kept and the rest defused. */
function defuseProse(text: string): string {
  let result = "";
  let plain = "";
  for (let i = 0; i < text.length;) {
    const ch = text[i]!;
    if (ch === "\\") {
      // An escaped character (a backtick among them) opens nothing.
      plain += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch !== "`") {
      plain += ch;
      i += 1;
      continue;
    }
    const run = /^`+/.exec(text.slice(i))![0];
    const end = closingRun(text, i + run.length, run.length);
    if (end === -1) {
      plain += run;
      i += run.length;
      continue;
    }
    result += defuse(plain) + text.slice(i, end + run.length);
    plain = "";
    i = end + run.length;
  }
  return result + defuse(plain);
}

/**
 * Where the run of `length` backticks that closes a code span begins, or -1. Only on the same
 * line, and not across a `|` (a table splits its cells there first), so that a span we keep is
 * a span to every viewer.
 */
function closingRun(text: string, from: number, length: number): number {
  for (let i = from; i < text.length;) {
    const ch = text[i]!;
    if (ch === "\n" || ch === "|") return -1;
    if (ch !== "`") {
      i += 1;
      continue;
    }
    const run = /^`+/.exec(text.slice(i))![0];
    if (run.length === length) return i;
    i += run.length;
  }
  return -1;
}

function defuse(text: string): string {
  return (
    text
      // A link `](dest` or a definition `]: dest` whose destination is not the web or mail.
      .replace(/\](?=[ \t]*\n?[ \t]*\(\s*<?\s*([^\s)>]*))/g, (bracket, destination: string) =>
        SAFE_DESTINATION.test(destination) ? bracket : "&#93;",
      )
      .replace(
        /\](?=:[ \t]*\n?[ \t]*<?([^\s>]*))/g,
        (bracket, destination: string, at: number, whole: string) =>
          SAFE_DESTINATION.test(destination) || isFootnoteLabel(whole, at) ? bracket : "&#93;",
      )
      .replace(/!\[/g, "!&#91;")
      .replace(/</g, "&lt;")
  );
}

/** A GFM footnote definition (`[^1]: …`) is text, not a link. */
const isFootnoteLabel = (text: string, at: number) => /\[\^[^\]]*$/.test(text.slice(0, at));
