// Math delimiters models write that remark-math does not read, and dollars that are money:
// `\( … \)` becomes `$…$`; `\[ … \]` and a line that is only `$$…$$` (which remark-math would
// set inline: small and to the left) become a `$$` block; and a `$` that cannot open or close
// inline math (Pandoc's rule: an opener has no space after it; a closer has no space before it and
// no digit after it) is escaped, so "$5 and $10" stays text. Code spans and fences are left alone.

export function normalizeMath(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      out.push(line);
    } else if (marker) {
      fence = marker;
      out.push(line);
    } else {
      const display = /^\s{0,3}\$\$([^$]+)\$\$\s*$/.exec(line)?.[1];
      if (display) out.push("", "$$", display.trim(), "$$", "");
      else out.push(outsideCodeSpans(line, normalizeLine));
    }
  }
  return out
    .join("\n")
    .replace(/\\\[([\s\S]+?)\\\]/g, (_, tex: string) => `\n$$\n${tex.trim()}\n$$\n`);
}

/** Applies `fix` to the parts of a line that are not inside `code spans`. */
function outsideCodeSpans(line: string, fix: (text: string) => string): string {
  return line
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : fix(part)))
    .join("");
}

function normalizeLine(text: string): string {
  return escapeLoneDollars(
    text.replace(/\\\(([\s\S]+?)\\\)/g, (_, tex: string) => `$${tex.trim()}$`),
  );
}

function escapeLoneDollars(text: string): string {
  const singles: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "$") continue;
    if (text[i - 1] === "\\") continue;
    if (text[i + 1] === "$") {
      i++;
      continue;
    }
    singles.push(i);
  }
  const escape = new Set<number>();
  for (let k = 0; k < singles.length; k++) {
    const open = singles[k]!;
    const after = text[open + 1];
    const closeAt =
      after !== undefined && !/\s/.test(after)
        ? singles
            .slice(k + 1)
            .findIndex((c) => !/\s/.test(text[c - 1]!) && !/\d/.test(text[c + 1] ?? ""))
        : -1;
    if (closeAt < 0) escape.add(open);
    else k += closeAt + 1;
  }
  let result = "";
  for (let i = 0; i < text.length; i++) result += escape.has(i) ? "\\$" : text[i];
  return result;
}
