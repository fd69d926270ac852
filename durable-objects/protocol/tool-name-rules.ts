// Which tool names a turn can offer. MCP asks for 1–128 characters of A–Z a–z 0–9 _ - . ; names
// with other visible characters ("get weather", "天気") still work, since the providers get a safe
// stand-in (providers/tool-names.ts) and the user sees the name itself. A name that is empty,
// longer than MCP allows, or holds characters nobody can see cannot be shown or chosen faithfully
// (it may pass for another tool's name on the approval card), so its tool is left out.
const MAX_TOOL_NAME = 128;
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const SHOWN_CHARS = 40;

/** Why a tool with this name cannot be offered, or null when it can. */
export function toolNameProblem(name: string): string | null {
  if (name.length === 0) return "it has no name";
  if (name.length > MAX_TOOL_NAME)
    return `its name is ${name.length} characters long; MCP allows ${MAX_TOOL_NAME}`;
  if (UNSEEN.test(name)) return "its name holds characters that cannot be seen";
  return null;
}

/** A name as a user can read it: unseen characters spelled out, a long one cut. */
export function shownToolName(name: string): string {
  const cut = name.length > SHOWN_CHARS ? `${name.slice(0, SHOWN_CHARS)}…` : name;
  const spelled = cut.replace(
    new RegExp(UNSEEN.source, "gu"),
    (c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`,
  );
  return `"${spelled}"`;
}

/** The sentence that names a server's left-out tools and why. */
export function leftOutToolsNotice(
  server: string,
  leftOut: ReadonlyArray<{ name: string; problem: string }>,
): string {
  const each = leftOut.map((t) => `${shownToolName(t.name)} (${t.problem})`).join(", ");
  return `The MCP server '${server}' offers ${leftOut.length === 1 ? "a tool" : `${leftOut.length} tools`} that cannot be used, left out: ${each}. Tool names must be 1–${MAX_TOOL_NAME} letters, digits, _, - or .; the server needs to rename ${leftOut.length === 1 ? "it" : "them"}.`;
}
