// A PDF's text with unpdf (PDF.js built for serverless runtimes). Only workers/pdf-text runs it:
// PDF.js is 1.6 MB of script, so the API worker asks that worker over a service binding instead
// (durable-objects/conversation/pdf-text.ts), and `npm run bundle:check` fails if it comes back.
export async function extractPdfText(bytes: Uint8Array): Promise<string> {
  const { extractText } = await import("unpdf");
  // PDF.js takes over the buffer it is given: hand it a copy.
  const { text } = await extractText(bytes.slice(), { mergePages: true });
  return text;
}
