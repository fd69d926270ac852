// workers/pdf-text: the text of a PDF for models that do not read PDF files. Reached only through
// the API worker's PDF_TEXT service binding (no public route), so PDF.js stays out of the API
// worker's script and start-up.
import { extractPdfText } from "../../../shared/extract-pdf-text";
import {
  type PdfTextAnswer,
  type PdfTextFailure,
  PDF_TEXT_URL,
} from "../../../shared/pdf-text-contract";

const textPath = new URL(PDF_TEXT_URL).pathname;

const failure = (status: number, error: PdfTextFailure["error"]) =>
  Response.json({ error } satisfies PdfTextFailure, { status });

export default {
  async fetch(request) {
    if (new URL(request.url).pathname !== textPath)
      return failure(404, {
        code: "not_found",
        message: `This worker answers POST ${textPath} only.`,
      });
    if (request.method !== "POST")
      return failure(405, {
        code: "method_not_allowed",
        message: `POST the PDF's bytes to ${textPath}.`,
      });
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.length === 0)
      return failure(400, {
        code: "empty_body",
        message: "The request carried no PDF: POST the file's bytes as the body.",
      });
    try {
      return Response.json({ text: await extractPdfText(bytes) } satisfies PdfTextAnswer);
    } catch (err) {
      return failure(422, {
        code: "unreadable_pdf",
        message: `The file could not be read as a PDF: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  },
} satisfies ExportedHandler;
