// A model request as the full audit log keeps it: the bytes of images and PDFs replaced by their
// size. Attached files would make one entry megabytes long, past the 2 MB a row of the object's
// SQLite may hold, and the log is for reading what was asked, not for keeping files twice.
import type { ModelRequest, NeutralPart } from "../providers/types";

type File = { type: "image" | "document"; data: string };
const withoutData = <T extends File>(part: T): T => ({
  ...part,
  data: `[${part.data.length} base64 characters]`,
});

function auditPart(part: NeutralPart): NeutralPart {
  if (part.type === "image" || part.type === "document") return withoutData(part);
  if (part.type === "tool_result")
    return {
      ...part,
      content: part.content.map((c) => (c.type === "image" ? withoutData(c) : c)),
    };
  return part;
}

export function auditedRequest(
  request: Omit<ModelRequest, "signal">,
): Omit<ModelRequest, "signal"> {
  return {
    ...request,
    messages: request.messages.map((m) => ({ ...m, content: m.content.map(auditPart) })),
  };
}
