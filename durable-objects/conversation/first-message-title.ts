// The title a conversation gets from its first message, until the model names it (titles.ts).
import { withoutBidiControls } from "../protocol/display-text";

const FIRST_MESSAGE_TITLE_CHARS = 60;

export function titleFromFirstMessage(text: string): string {
  const line = withoutBidiControls(text).replace(/\s+/g, " ").trim();
  return line.length <= FIRST_MESSAGE_TITLE_CHARS
    ? line
    : `${line.slice(0, FIRST_MESSAGE_TITLE_CHARS - 1).trimEnd()}…`;
}
