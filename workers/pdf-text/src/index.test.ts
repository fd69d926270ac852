// What the API worker gets back over the PDF_TEXT binding: a PDF's text, or an error that says
// what was wrong with the request.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PDF_TEXT, pdfBytes } from "../../../tests/support/attachment-files";
import { PDF_TEXT_URL, PdfTextAnswer, PdfTextFailure } from "../../../shared/pdf-text-contract";

const post = (body: BodyInit | null, url = PDF_TEXT_URL) =>
  exports.default.fetch(new Request(url, { method: "POST", body }));

async function failureOf(res: Response) {
  return PdfTextFailure.parse(await res.json()).error;
}

describe("workers/pdf-text", () => {
  it("answers a PDF's bytes with its text", async () => {
    const res = await post(pdfBytes());
    expect(res.status).toBe(200);
    expect(PdfTextAnswer.parse(await res.json()).text).toContain(PDF_TEXT);
  }, 60_000);

  it("says a file that is not a PDF cannot be read as one", async () => {
    const res = await post(new TextEncoder().encode("drug,dose\naspirin,81\n"));
    expect(res.status).toBe(422);
    const error = await failureOf(res);
    expect(error.code).toBe("unreadable_pdf");
    expect(error.message).toMatch(/^The file could not be read as a PDF: /);
  }, 60_000);

  it("asks for the bytes when the body is empty", async () => {
    const res = await post(null);
    expect(res.status).toBe(400);
    expect(await failureOf(res)).toEqual({
      code: "empty_body",
      message: "The request carried no PDF: POST the file's bytes as the body.",
    });
  });

  it("names its one route to other paths and methods", async () => {
    const elsewhere = await post(pdfBytes(), "https://pdf-text.internal/other");
    expect(elsewhere.status).toBe(404);
    expect((await failureOf(elsewhere)).message).toBe("This worker answers POST /text only.");
    const get = await exports.default.fetch(new Request(PDF_TEXT_URL));
    expect(get.status).toBe(405);
    expect((await failureOf(get)).code).toBe("method_not_allowed");
  });
});
