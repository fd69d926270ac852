// Whether text could render differently as markdown than as plain text: anything that may be
// emphasis, code, a heading, quote, list, table, link, autolink, math, an entity or an escape.
// Text without any of it (most short replies) skips the renderer and its chunk. False
// positives only cost a render; a false negative would show markdown as raw text.
const SYNTAX =
  /[*_`~#>|[\]$&\\<]|^ {0,3}(?:[-+]|\d{1,9}[.)])(?:\s|$)|^ {4}|^\t|^ {0,3}[-=]+\s*$|\w@\w|:\/\/|www\./m;

export function hasMarkdownSyntax(text: string): boolean {
  return SYNTAX.test(text);
}
