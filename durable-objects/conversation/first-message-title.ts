// The title a conversation gets from its first message, until the model names it (titles.ts).
const FIRST_MESSAGE_TITLE_CHARS = 60;

export function titleFromFirstMessage(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= FIRST_MESSAGE_TITLE_CHARS
    ? line
    : `${line.slice(0, FIRST_MESSAGE_TITLE_CHARS - 1).trimEnd()}…`;
}
