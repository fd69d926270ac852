// The text of a PDF, for models that do not read PDF files: asked of workers/pdf-text over the
// PDF_TEXT service binding, so PDF.js (1.6 MB of script) is neither in this worker's script nor
// parsed at its start-up.
import { PDF_TEXT_URL, PdfTextAnswer, PdfTextFailure } from "../../shared/pdf-text-contract";

/** The PDF text worker could not give the text; the loader names the file as unreadable. */
export class PdfTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PdfTextError";
  }
}

export async function pdfText(service: Fetcher, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const res = await service.fetch(PDF_TEXT_URL, {
    method: "POST",
    headers: { "content-type": "application/pdf" },
    body: bytes,
  });
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) {
    const answer = PdfTextAnswer.safeParse(body);
    if (answer.success) return answer.data.text;
    throw new PdfTextError("The PDF text worker answered without the text.");
  }
  const failure = PdfTextFailure.safeParse(body);
  throw new PdfTextError(
    failure.success
      ? failure.data.error.message
      : `The PDF text worker failed (HTTP ${res.status}); is workers/pdf-text deployed and bound as PDF_TEXT?`,
  );
}
