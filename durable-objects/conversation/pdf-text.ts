// The text of a PDF, for models that do not read PDF files: unpdf (PDF.js built for serverless
// runtimes), loaded on first use so a conversation without PDFs never pays for it.
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { extractText } = await import("unpdf");
  // PDF.js takes over the buffer it is given: hand it a copy.
  const { text } = await extractText(bytes.slice(), { mergePages: true });
  return text;
}
