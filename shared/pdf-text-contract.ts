// What the API worker's Durable Object and workers/pdf-text say to each other over the PDF_TEXT
// service binding: the PDF's bytes go in a POST body, its text (or an error) comes back as JSON.
import { z } from "zod";

/** The one route of workers/pdf-text; the host is ignored (a service binding has no hostname). */
export const PDF_TEXT_URL = "https://pdf-text.internal/text";

export const PdfTextAnswer = z.object({ text: z.string() });
export type PdfTextAnswer = z.infer<typeof PdfTextAnswer>;

export const PdfTextFailure = z.object({
  error: z.object({
    code: z.enum(["not_found", "method_not_allowed", "empty_body", "unreadable_pdf"]),
    message: z.string(),
  }),
});
export type PdfTextFailure = z.infer<typeof PdfTextFailure>;
