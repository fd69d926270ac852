// @vitest-environment jsdom
// Files in a sent message: an image as a thumbnail, a PDF as an icon and its name; each opens in
// the artifact pane, previews or downloads from our own origin, and pins.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { AttachmentPart } from "../../../durable-objects/protocol/messages";
import { ApiFailure } from "../api";
import { MessageAttachments } from "./MessageAttachments";
import { type Pins, PinsContext } from "./pins";

const image: AttachmentPart = {
  type: "attachment",
  artifactId: "img-1",
  name: "plot.png",
  contentType: "image/png",
  size: 48_000,
  kind: "image",
};
const pdf: AttachmentPart = {
  type: "attachment",
  artifactId: "pdf-1",
  name: "trial.pdf",
  contentType: "application/pdf",
  size: 1_300_000,
  kind: "pdf",
};

let root: Root;
let host: HTMLDivElement;
let opened: string[];
let pinCalls: [string, boolean][];

function render(pins: Pins | null, parts: AttachmentPart[] = [image, pdf]) {
  return act(async () =>
    root.render(
      <PinsContext.Provider value={pins}>
        <MessageAttachments parts={parts} onOpenArtifact={(id) => opened.push(id)} />
      </PinsContext.Provider>,
    ),
  );
}

beforeEach(() => {
  opened = [];
  pinCalls = [];
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
});
afterEach(async () => {
  await act(async () => root.unmount());
  host.remove();
});

const items = () => [...host.querySelectorAll('[aria-label="Attached files"] > li')];

it("shows an image as a thumbnail and a PDF as an icon, each with name, kind and size", async () => {
  await render(null);
  const [img, doc] = items();
  const thumbnail = img!.querySelector("img")!;
  expect(thumbnail.getAttribute("src")).toBe("/api/artifacts/img-1/download");
  expect(img!.textContent).toContain("plot.png");
  expect(img!.textContent).toContain("Image · 46.9 KiB");
  expect(doc!.querySelector("img")).toBeNull();
  expect(doc!.textContent).toContain("📄");
  expect(doc!.textContent).toContain("trial.pdf");
  expect(doc!.textContent).toContain("PDF · 1.2 MiB");
});

it("opens in the artifact pane, previews inline in a new tab and downloads as a file", async () => {
  await render(null);
  const doc = items()[1]!;
  await act(async () => doc.querySelector<HTMLButtonElement>("button")!.click());
  expect(opened).toEqual(["pdf-1"]);
  const preview = doc.querySelector<HTMLAnchorElement>(
    'a[aria-label="Preview trial.pdf in a new tab"]',
  )!;
  expect(preview.getAttribute("href")).toBe("/api/artifacts/pdf-1/download?inline=1");
  expect(preview.target).toBe("_blank");
  expect(preview.rel).toContain("noopener");
  const download = doc.querySelector<HTMLAnchorElement>('a[aria-label="Download trial.pdf"]')!;
  expect(download.getAttribute("href")).toBe("/api/artifacts/pdf-1/download?attachment=1");
  expect(download.getAttribute("download")).toBe("trial.pdf");
  // Without the app's pins there is nothing to pin with.
  expect(doc.querySelector("button[aria-pressed]")).toBeNull();
});

it("pins and unpins through the app; a refusal is shown beside the button", async () => {
  let fail = false;
  const pins: Pins = {
    pinnedIds: new Set(["img-1"]),
    setPinned: async (id, pinned) => {
      pinCalls.push([id, pinned]);
      if (fail) throw new ApiFailure(404, "not_found", "gone");
    },
  };
  await render(pins);
  const pinOf = (name: string) =>
    [...host.querySelectorAll<HTMLButtonElement>("button[aria-pressed]")].find((b) =>
      b.textContent?.endsWith(` ${name}`),
    )!;
  const pinImage = pinOf("plot.png");
  const pinPdf = pinOf("trial.pdf");
  expect(pinImage.getAttribute("aria-pressed")).toBe("true");
  expect(pinImage.textContent).toBe("Pinned plot.png");
  expect(pinPdf.textContent).toBe("Pin trial.pdf");
  expect(pinPdf.getAttribute("aria-pressed")).toBe("false");
  await act(async () => pinImage.click());
  await act(async () => pinPdf.click());
  expect(pinCalls).toEqual([
    ["img-1", false],
    ["pdf-1", true],
  ]);
  fail = true;
  await act(async () => pinPdf.click());
  expect(items()[1]!.querySelector('[role="alert"]')!.textContent).toBe(
    "This artifact no longer exists.",
  );
});

it("marks a file deleted since it was sent, with nothing left to open, fetch or pin", async () => {
  const pins: Pins = { pinnedIds: new Set(), setPinned: async () => {} };
  await render(pins, [{ ...image, deleted: true }, pdf]);
  const [gone, kept] = items();
  expect(gone!.textContent).toContain("plot.png (deleted)");
  expect(gone!.textContent).toContain("deleted since it was sent");
  // No thumbnail to load, no link or button that would answer 404.
  expect(gone!.querySelector("img, a, button")).toBeNull();
  expect(kept!.querySelector("button")).not.toBeNull();
  expect(kept!.textContent).not.toContain("(deleted)");
});
