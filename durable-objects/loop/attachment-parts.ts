// A user's attachment as the model receives it: images as image parts for models that see, PDFs
// as document parts for models that read them (their extracted text otherwise), text, tables and
// JSON inline, cut at a length with a pointer to the whole artifact. Each comes after a label
// naming the file, so the model can refer to it.
import type { AttachmentPart } from "../protocol/messages";
import type { AttachmentCapabilities } from "../providers/attachment-capabilities";
import type { NeutralPart } from "../providers/types";

/** What the conversation loaded of an attachment for this turn. */
export interface LoadedAttachment {
  part: AttachmentPart;
  /** The bytes, base64: an image or PDF going to a model that takes it as such. */
  base64?: string;
  /** The text form: the file's own text, or the text extracted from a PDF. */
  text?: string;
  /** Why its content is not here (sent earlier and not repeated, deleted, unreadable). */
  unavailable?: string;
}

export interface AttachmentConversion {
  parts: NeutralPart[];
  /** Set when the model got the text form of a kind it cannot take. */
  textInstead?: "image" | "pdf";
}

export function attachmentParts(
  loaded: LoadedAttachment,
  can: AttachmentCapabilities,
  maxTextChars: number,
): AttachmentConversion {
  const { part } = loaded;
  const label = `[Attachment: ${part.name} (${part.contentType}, ${part.size} bytes), artifact ${part.artifactId}]`;
  const text = (body: string): NeutralPart => ({ type: "text", text: `${label}\n${body}` });
  if (loaded.unavailable) return { parts: [text(loaded.unavailable)] };
  switch (part.kind) {
    case "image":
      if (!can.images)
        return {
          parts: [text("(An image: this model cannot see images, so only its name is given.)")],
          textInstead: "image",
        };
      if (!loaded.base64) return { parts: [text("(An image, not loaded.)")] };
      return {
        parts: [
          { type: "text", text: label },
          { type: "image", mediaType: part.contentType, data: loaded.base64 },
        ],
      };
    case "pdf":
      if (can.pdfDocuments && loaded.base64)
        return {
          parts: [
            { type: "text", text: label },
            {
              type: "document",
              mediaType: "application/pdf",
              data: loaded.base64,
              name: part.name,
            },
          ],
        };
      return {
        parts: [
          text(
            loaded.text?.trim()
              ? `The text of this PDF (figures and layout are not included):\n${fenced(cut(loaded.text, maxTextChars, part))}`
              : "(A PDF with no text that could be extracted: perhaps a scan.)",
          ),
        ],
        ...(!can.pdfDocuments && { textInstead: "pdf" as const }),
      };
    case "text":
    case "table":
    case "json":
      return { parts: [text(fenced(cut(loaded.text ?? "", maxTextChars, part)))] };
  }
}

/** The text up to `max` characters; what is cut is said, with where the whole file is. */
export function cut(text: string, max: number, part: AttachmentPart): string {
  if (text.length <= max) return text;
  return (
    `${text.slice(0, max)}\n… [cut here: only the first ${max} characters of ${part.name} ` +
    `(${part.size} bytes) fit. The whole file is kept as artifact ${part.artifactId}; ask the ` +
    "user for the part you need.]"
  );
}

/**
 * A fence longer than any run of backticks inside, so the file cannot close it early. A file's
 * own last line break (most files end with one) is not a blank line before the fence.
 */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text.replace(/\r?\n$/, "")}\n${fence}`;
}

/** The notice for a turn whose new attachments went to the model as text. */
export function textInsteadNotice(model: string, kinds: ReadonlySet<"image" | "pdf">): string {
  const what = [
    kinds.has("image") && "cannot see images: it was given their names only",
    kinds.has("pdf") && "does not read PDF files: it was given their extracted text",
  ].filter(Boolean);
  return `${model} ${what.join(", and ")}. Pick a model that sees images or reads PDFs (Anthropic or Gemini) to send them as they are.`;
}
