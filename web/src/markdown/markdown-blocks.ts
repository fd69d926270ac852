// A message's markdown cut into top-level blocks that render alike apart and together, so a
// streaming answer parses and draws only its last block again on each delta: every earlier block
// is the same string as before, and its memoized render is kept.
//
// A cut falls only on a blank line (outside code fences and `$$` math) followed by a line that
// must start a new block: not indented (it would continue a list item or be indented code), and
// not a list marker when the block holds a list (the item could continue a loose list). Link
// reference definitions and footnotes reach across blocks: a text that has any stays whole. The
// last line, still unfinished while an answer streams, stays with the block before it.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const MATH_FENCE = /^ {0,3}\$\$/;
const MATH_CLOSE = /^ {0,3}\$\$+\s*$/;
const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?:\s|$)/;
const DEFINITION = /^ {0,3}\[[^\]]+\]:/m;

export function markdownBlocks(markdown: string): string[] {
  if (DEFINITION.test(markdown)) return [markdown];
  const blocks: string[] = [];
  let block: string[] = [];
  let fence: string | null = null;
  let math = false;
  let afterBlank = false;
  let inList = false;
  const close = () => {
    while (block.length > 0 && block[block.length - 1]!.trim() === "") block.pop();
    if (block.length > 0) blocks.push(block.join("\n"));
    block = [];
    inList = false;
  };
  const lines = markdown.split("\n");
  for (const [i, line] of lines.entries()) {
    if (fence) {
      const marker = FENCE.exec(line)?.[1];
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
    } else if (math) {
      if (MATH_CLOSE.test(line)) math = false;
    } else if (line.trim() === "") {
      afterBlank = true;
    } else {
      const marker = LIST_MARKER.test(line);
      // A line still being written (the last, without its newline) may turn out a marker yet.
      const complete = i < lines.length - 1;
      if (complete && afterBlank && !/^\s/.test(line) && !(marker && inList)) close();
      if (marker) inList = true;
      afterBlank = false;
      fence = FENCE.exec(line)?.[1] ?? null;
      // `$$` opens a math block unless the same line closes it.
      math = !fence && MATH_FENCE.test(line) && !line.trim().slice(2).includes("$$");
    }
    block.push(line);
  }
  close();
  return blocks;
}
