// A message's markdown cut into top-level blocks that render alike apart and together, so a
// streaming answer parses and draws only its last block again on each delta: every earlier block
// is the same string as before, and its memoized render is kept.
//
// A cut falls only on a blank line (outside code fences and `$$` math) between a line that is not
// indented (what follows could continue indented code or a list item's content) and one that
// must start a new block: not indented either, and not a list marker when the block holds a list
// (the item could continue a loose list). The last line, still unfinished while an answer
// streams, stays with the block before it. Link reference definitions and footnotes reach
// across blocks, and an HTML block runs to the next blank line whatever it holds (a fence, `$$`):
// a text with any of them stays whole.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const MATH_FENCE = /^ {0,3}\$\$/;
const MATH_CLOSE = /^ {0,3}\$\$+\s*$/;
const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?:\s|$)/;
const WHOLE = /^ {0,3}(?:\[[^\]]+\]:|<[A-Za-z/!?])/m;

export function markdownBlocks(markdown: string): string[] {
  if (WHOLE.test(markdown)) return [markdown];
  const blocks: string[] = [];
  let block: string[] = [];
  let fence: string | null = null;
  let math = false;
  let afterBlank = false;
  let lastIndented = false;
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
      const indented = /^\s/.test(line);
      if (complete && afterBlank && !lastIndented && !indented && !(marker && inList)) close();
      if (marker) inList = true;
      afterBlank = false;
      lastIndented = indented;
      fence = FENCE.exec(line)?.[1] ?? null;
      // `$$` opens a math block unless the same line closes it.
      math = !fence && MATH_FENCE.test(line) && !line.trim().slice(2).includes("$$");
    }
    block.push(line);
  }
  close();
  return blocks;
}
