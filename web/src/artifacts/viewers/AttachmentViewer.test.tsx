// An attached file in the artifact pane: listed as an attached file, and shown by its kind (an
// image as the image, a PDF as a link to the browser's own viewer; text is fetched, in Chromium).
import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { typeLabel } from "../artifact-kind";
import { artifact } from "../test-artifact";
import { viewerFor } from "./viewer-for";

const attached = (kind: string, name: string, contentType: string) =>
  artifact({
    id: `att-${kind}`,
    type: "attachment",
    title: name,
    contentType,
    content: null,
    size: 2048,
    metadata: { attachment: { name, contentType, size: 2048, kind } },
  });

const show = (a: ReturnType<typeof artifact>) => {
  const Viewer = viewerFor(a.type);
  return renderToStaticMarkup(<Viewer artifact={a} onSaved={() => undefined} />);
};

it("lists as an attached file", () => {
  expect(typeLabel("attachment")).toBe("Attached file");
});

it("shows an attached image from our own origin", () => {
  const html = show(attached("image", "plot.png", "image/png"));
  expect(html).toContain('src="/api/artifacts/att-image/download"');
  expect(html).toContain('alt="plot.png"');
});

it("offers an attached PDF in the browser's viewer, in a new tab", () => {
  const html = show(attached("pdf", "trial.pdf", "application/pdf"));
  expect(html).toContain("trial.pdf");
  expect(html).toContain("PDF · 2 KiB");
  expect(html).toContain('href="/api/artifacts/att-pdf/download?inline=1"');
  expect(html).toContain('target="_blank"');
  expect(html).toContain("Open the PDF in a new tab");
});

it("reads an attached table from the download route, saying so while it loads", () => {
  expect(show(attached("table", "data.csv", "text/csv"))).toContain("Loading…");
});
