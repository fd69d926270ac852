// @vitest-environment jsdom
// Files in the composer: chosen in the picker, dropped on it or pasted; each a chip with its name,
// size and upload progress, or the server's reason for refusing it; Send waits for uploads and
// sends the stored files' ids with the text. The uploads are in memory here (the route itself is
// tested in workers/api, the whole path in Chromium in tests/e2e/attachments.test.ts).
import { act, useRef } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { ApiFailure } from "../../api";
import { artifact } from "../../artifacts/test-artifact";
import type { CatalogApi } from "../catalog-api";
import { Composer } from "../Composer";
import type { AttachmentUploader, UploadProgress } from "./upload-attachment";
import { uploadFailure } from "./upload-attachment";

/** An upload the test finishes by hand: report progress, then store or refuse the file. */
interface PendingUpload {
  file: File;
  progress: UploadProgress;
  signal: AbortSignal;
  store: () => void;
  refuse: (err: Error) => void;
}

let uploads: PendingUpload[];
let discarded: string[];
/** Stored files deleted behind the composer's back (in the artifact pane). */
let deleted: Set<string>;
/** Files stored by an earlier page (before a reload), by artifact id. */
let storedEarlier: Map<string, ReturnType<typeof artifact>>;
let sent: { text: string; attachments: string[] }[];
let root: Root;
let host: HTMLDivElement;

const uploader: AttachmentUploader = (file, progress, signal) =>
  new Promise((resolve, reject) => {
    uploads.push({
      file,
      progress,
      signal,
      store: () =>
        resolve(
          artifact({
            id: `art-${file.name}`,
            type: "attachment",
            title: file.name,
            content: null,
            size: file.size,
          }),
        ),
      refuse: reject,
    });
  });

const noCatalog = {} as CatalogApi;

/** Each test's own conversation: chips left in one wait there for the user's return. */
let conversation: string;

/** The composer of the test's conversation, as the chat renders it (with a refused send, if any). */
const render = (
  returned: Parameters<typeof Composer>[0]["returned"] = null,
  conversationId = conversation,
) =>
  act(async () =>
    root.render(
      <Composer
        key={conversationId}
        conversationId={conversationId}
        busy={false}
        onSend={(text, attachments) => sent.push({ text, attachments })}
        onCancel={() => undefined}
        api={noCatalog}
        uploader={uploader}
        discardUpload={async (id) => discarded.push(id)}
        fileExists={async (id) => !deleted.has(id)}
        storedFile={async (id) => storedEarlier.get(id) ?? null}
        returned={returned}
      />,
    ),
  );

beforeEach(async () => {
  conversation = `c-${crypto.randomUUID()}`;
  uploads = [];
  discarded = [];
  deleted = new Set();
  storedEarlier = new Map();
  sent = [];
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
  await render();
});
afterEach(async () => {
  await act(async () => root.unmount());
  host.remove();
});

const settle = () => act(() => new Promise((r) => setTimeout(r, 0)));
const box = () => host.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')!;
const button = (name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent === name)!;
const sendButton = () => button("Send");
const chips = () => [...host.querySelectorAll('[aria-label="Files for the next message"] li')];
const hint = () => host.querySelector("#composer-hint")!.textContent;

const png = (name = "plot.png", size = 2048) =>
  new File([new Uint8Array(size)], name, { type: "image/png" });

async function type(value: string) {
  const el = box();
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value")!.set!;
  await act(async () => {
    setter.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await settle();
}

async function pick(...files: File[]) {
  const input = host.querySelector<HTMLInputElement>('input[type="file"]')!;
  Object.defineProperty(input, "files", { value: files, configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await settle();
}

/** A DataTransfer as a drop or paste carries it (jsdom has none of its own). */
function transfer(files: File[], text = ""): Partial<DataTransfer> {
  return {
    types: [...(files.length > 0 ? ["Files"] : []), ...(text ? ["text/plain"] : [])],
    files: files as unknown as FileList,
    getData: (format: string) => (format === "text/plain" ? text : ""),
    dropEffect: "none",
  };
}

async function fire(target: Element, type: string, key: string, data: Partial<DataTransfer>) {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, key, { value: data });
  await act(async () => {
    target.dispatchEvent(event);
  });
  await settle();
  return event;
}

async function click(el: Element) {
  await act(async () => (el as HTMLElement).click());
  await settle();
}

it("the picker uploads a file at once: its chip shows name, size and progress, and Send waits for it", async () => {
  const picker = button("Attach files");
  expect(picker.getAttribute("title")).toMatch(/drop or paste/);
  await pick(png("plot.png", 2048));
  expect(uploads.map((u) => u.file.name)).toEqual(["plot.png"]);
  expect(chips()[0]!.textContent).toContain("plot.png");
  expect(chips()[0]!.textContent).toContain("2 KiB");

  await act(async () => uploads[0]!.progress(0.4));
  const bar = chips()[0]!.querySelector("progress")!;
  expect(bar.getAttribute("aria-label")).toBe("Uploading plot.png");
  expect(bar.value).toBeCloseTo(0.4);

  await type("What does this plot show?");
  expect(sendButton().disabled).toBe(true);
  expect(hint()).toMatch(/Uploading your files/);

  await act(async () => uploads[0]!.store());
  await settle();
  expect(chips()[0]!.querySelector("progress")).toBeNull();
  expect(chips()[0]!.textContent).toContain("attached");
  expect(sendButton().disabled).toBe(false);

  await click(sendButton());
  expect(sent).toEqual([{ text: "What does this plot show?", attachments: ["art-plot.png"] }]);
  expect(chips()).toHaveLength(0);
});

it("a file the server refuses shows its words; the message goes without it", async () => {
  await pick(png("huge.png"), png("ok.png"));
  await act(async () => {
    uploads[0]!.refuse(
      uploadFailure(
        413,
        JSON.stringify({
          error: {
            code: "payload_too_large",
            message:
              "This file (12 MiB) is larger than the 10 MiB an attachment may be. Attach a smaller file, or split it.",
          },
        }),
      ),
    );
    uploads[1]!.store();
  });
  await settle();
  const alert = chips()[0]!.querySelector('[role="alert"]')!;
  expect(alert.textContent).toBe(
    "This file (12 MiB) is larger than the 10 MiB an attachment may be. Attach a smaller file, or split it.",
  );
  await type("Compare them");
  await click(sendButton());
  expect(sent).toEqual([{ text: "Compare them", attachments: ["art-ok.png"] }]);
});

it("removing a chip stops its upload, or deletes the file it already stored", async () => {
  await pick(png("slow.png"), png("done.png"));
  await act(async () => uploads[1]!.store());
  await settle();
  await click(host.querySelector('button[aria-label="Remove slow.png"]')!);
  expect(uploads[0]!.signal.aborted).toBe(true);
  await click(host.querySelector('button[aria-label="Remove done.png"]')!);
  expect(discarded).toEqual(["art-done.png"]);
  expect(chips()).toHaveLength(0);
  await type("Nothing attached");
  await click(sendButton());
  expect(sent).toEqual([{ text: "Nothing attached", attachments: [] }]);
});

it("files dropped on the composer are attached; a drag of text is left to the text box", async () => {
  const area = host.querySelector(".composer-area")!;
  const over = await fire(area, "dragover", "dataTransfer", transfer([png("dropped.png")]));
  expect(over.defaultPrevented).toBe(true);
  expect(area.classList.contains("dragging")).toBe(true);
  const drop = await fire(area, "drop", "dataTransfer", transfer([png("dropped.png")]));
  expect(drop.defaultPrevented).toBe(true);
  expect(area.classList.contains("dragging")).toBe(false);
  expect(uploads.map((u) => u.file.name)).toEqual(["dropped.png"]);

  const textDrag = await fire(area, "dragover", "dataTransfer", transfer([], "some words"));
  expect(textDrag.defaultPrevented).toBe(false);
});

it("files dropped while the user's role loads wait, saying so, and are attached once the box opens", async () => {
  const WAITING = "Loading your role in this conversation…";
  const withWaiting = (waiting: string | null) =>
    act(async () =>
      root.render(
        <Composer
          key={conversation}
          conversationId={conversation}
          busy={false}
          onSend={(text, attachments) => sent.push({ text, attachments })}
          onCancel={() => undefined}
          api={noCatalog}
          uploader={uploader}
          waiting={waiting}
        />,
      ),
    );
  await withWaiting(WAITING);
  const area = host.querySelector(".composer-area")!;
  const drop = await fire(area, "drop", "dataTransfer", transfer([png("early.png")]));
  expect(drop.defaultPrevented).toBe(true);
  await fire(area, "drop", "dataTransfer", transfer([png("second.png")]));
  // Nothing uploads before the user is known to be able to send it; the hint says they wait.
  expect(uploads).toHaveLength(0);
  expect(hint()).toContain(WAITING);
  expect(hint()).toContain("The 2 files you dropped wait: they are attached once the box opens.");

  await withWaiting(null);
  await settle();
  expect(uploads.map((u) => u.file.name)).toEqual(["early.png", "second.png"]);
  expect(chips().map((c) => c.textContent)).toEqual([
    expect.stringContaining("early.png"),
    expect.stringContaining("second.png"),
  ]);
  expect(hint()).not.toContain("you dropped");
});

it("a file dropped beside the composer does not take the browser away from the app", async () => {
  const beside = document.createElement("div");
  document.body.appendChild(beside);
  const drop = await fire(beside, "drop", "dataTransfer", transfer([png("stray.png")]));
  expect(drop.defaultPrevented).toBe(true);
  expect(uploads).toHaveLength(0);
  beside.remove();
});

it("a pasted image is attached; a paste with text pastes the text", async () => {
  const image = await fire(box(), "paste", "clipboardData", transfer([png("image.png")]));
  expect(image.defaultPrevented).toBe(true);
  expect(uploads.map((u) => u.file.name)).toEqual(["image.png"]);
  // Cells copied from a spreadsheet bring a picture of themselves along.
  const cells = await fire(box(), "paste", "clipboardData", transfer([png("cells.png")], "a\tb"));
  expect(cells.defaultPrevented).toBe(false);
  expect(uploads).toHaveLength(1);
});

it("a file copied in a file manager and pasted is attached, not pasted as its name", async () => {
  const pdf = new File(["%PDF-1.4"], "report.pdf", { type: "application/pdf" });
  const pasted = await fire(box(), "paste", "clipboardData", transfer([pdf], "report.pdf"));
  expect(pasted.defaultPrevented).toBe(true);
  expect(uploads.map((u) => u.file.name)).toEqual(["report.pdf"]);
  // An image file copied the same way comes with its path as text: it is attached too.
  const image = await fire(
    box(),
    "paste",
    "clipboardData",
    transfer([png("chart.png")], "/home/me/chart.png"),
  );
  expect(image.defaultPrevented).toBe(true);
  expect(uploads.map((u) => u.file.name)).toEqual(["report.pdf", "chart.png"]);
  expect(box().value).toBe("");
});

it("a message carries at most ten files: the eleventh gets a chip saying so", async () => {
  await pick(...Array.from({ length: 11 }, (_, i) => png(`f${i}.png`)));
  expect(uploads).toHaveLength(10);
  const last = chips().at(-1)!;
  expect(last.textContent).toContain("f10.png");
  expect(last.querySelector('[role="alert"]')!.textContent).toMatch(/at most 10 files/);
});

it("files alone cannot be sent: the hint asks for words to go with them", async () => {
  await pick(png());
  await act(async () => uploads[0]!.store());
  await settle();
  expect(sendButton().disabled).toBe(true);
  expect(hint()).toMatch(/Add a few words to go with the files/);
});

it("an answer that is not the API's JSON still gives words a person can act on", () => {
  expect(uploadFailure(413, "<html>Request Entity Too Large</html>").message).toBe(
    "This file is too large to upload. Attach a smaller file.",
  );
  expect(uploadFailure(401, "").message).toBe("Your session has ended; sign in again.");
  const typeRefused = uploadFailure(
    415,
    JSON.stringify({
      error: {
        code: "unsupported_media_type",
        message: '"a.exe" is a program, which cannot be attached.',
      },
    }),
  );
  expect(typeRefused).toBeInstanceOf(ApiFailure);
  expect(typeRefused.code).toBe("unsupported_media_type");
  expect(typeRefused.message).toBe('"a.exe" is a program, which cannot be attached.');
});

it("a message the server refused gives back its files with its text, ready to send again", async () => {
  await pick(png("plot.png"), png("table.png"));
  await act(async () => uploads.forEach((u) => u.store()));
  await settle();
  await type("Compare them");
  await click(sendButton());
  expect(chips()).toHaveLength(0);

  // Attached meanwhile: it stays, after the files given back.
  await pick(png("later.png"));
  await render({
    clientMessageId: "m1",
    text: "Compare them",
    attachments: ["art-plot.png", "art-table.png"],
  });
  await settle();
  expect(box().value).toBe("Compare them");
  expect(chips().map((c) => c.querySelector(".attachment-chip-name")!.textContent)).toEqual([
    "plot.png",
    "table.png",
    "later.png",
  ]);
  expect(chips()[0]!.textContent).toContain("attached");
  expect(discarded).toEqual([]);

  await act(async () => uploads[2]!.store());
  await settle();
  await click(sendButton());
  expect(sent.at(-1)).toEqual({
    text: "Compare them",
    attachments: ["art-plot.png", "art-table.png", "art-later.png"],
  });
});

it("a message sent before a reload and refused after it comes back with its files' chips", async () => {
  // Uploaded and sent by the page before the reload: this composer never saw the files.
  storedEarlier.set(
    "art-q3.pdf",
    artifact({ id: "art-q3.pdf", type: "attachment", title: "q3.pdf", size: 4096 }),
  );
  await render({ clientMessageId: "m1", text: "Summarise Q3", attachments: ["art-q3.pdf"] });
  await settle();
  expect(box().value).toBe("Summarise Q3");
  expect(chips().map((c) => c.querySelector(".attachment-chip-name")!.textContent)).toEqual([
    "q3.pdf",
  ]);
  await click(sendButton());
  expect(sent.at(-1)).toEqual({ text: "Summarise Q3", attachments: ["art-q3.pdf"] });
});

it("files attached but not sent wait in their conversation while the user is in another", async () => {
  await pick(png("draft.png"), png("slow.png"));
  await act(async () => uploads[0]!.store());
  await settle();
  await render(null, "another");
  expect(chips()).toHaveLength(0);
  // Leaving stopped the upload on its way: its chip says so.
  expect(uploads[1]!.signal.aborted).toBe(true);

  await render(null, conversation);
  expect(chips().map((c) => c.querySelector(".attachment-chip-name")!.textContent)).toEqual([
    "draft.png",
    "slow.png",
  ]);
  expect(chips()[0]!.textContent).toContain("attached");
  expect(chips()[1]!.querySelector('[role="alert"]')!.textContent).toMatch(/attach the file again/);
  expect(discarded).toEqual([]);
  await type("Here is the draft");
  await click(sendButton());
  expect(sent).toEqual([{ text: "Here is the draft", attachments: ["art-draft.png"] }]);
});

it("a reload keeps what is typed and the files attached for the next message; once sent they are gone", async () => {
  await pick(png("draft.png"), png("gone.png"));
  await act(async () => {
    uploads[0]!.store();
    uploads[1]!.store();
  });
  await settle();
  await type("Here is the draft");
  // Deleted in the artifact pane before the reload: its chip says so after it.
  deleted.add("art-gone.png");
  // A reload: a new page (the module's in-page memory is gone), the same tab's storage.
  await act(async () => root.unmount());
  vi.resetModules();
  const { Composer: Reloaded } = await import("../Composer");
  root = createRoot(host);
  const reloaded = () =>
    act(async () =>
      root.render(
        <Reloaded
          conversationId={conversation}
          busy={false}
          onSend={(text, attachments) => sent.push({ text, attachments })}
          onCancel={() => undefined}
          api={noCatalog}
          uploader={uploader}
          discardUpload={async (id) => discarded.push(id)}
          fileExists={async (id) => !deleted.has(id)}
        />,
      ),
    );
  await reloaded();
  await settle();
  expect(box().value).toBe("Here is the draft");
  expect(chips().map((c) => c.querySelector(".attachment-chip-name")!.textContent)).toEqual([
    "draft.png",
    "gone.png",
  ]);
  expect(chips()[1]!.querySelector('[role="alert"]')!.textContent).toMatch(/was deleted/);
  await click(chips()[1]!.querySelector<HTMLButtonElement>("button")!);
  await click(sendButton());
  expect(sent).toEqual([{ text: "Here is the draft", attachments: ["art-draft.png"] }]);
  await act(async () => root.unmount());
  root = createRoot(host);
  await reloaded();
  await settle();
  expect(box().value).toBe("");
  expect(chips()).toHaveLength(0);
});

it("files dropped anywhere on the conversation are attached, once each", async () => {
  function Conversation() {
    const zone = useRef<HTMLElement>(null);
    return (
      <section ref={zone}>
        <div className="messages" />
        <Composer
          conversationId={conversation}
          busy={false}
          onSend={(text, attachments) => sent.push({ text, attachments })}
          onCancel={() => undefined}
          api={noCatalog}
          uploader={uploader}
          discardUpload={async (id) => discarded.push(id)}
          dropZone={zone}
        />
      </section>
    );
  }
  await act(async () => root.render(<Conversation />));
  const messages = host.querySelector(".messages")!;
  const over = await fire(messages, "dragover", "dataTransfer", transfer([png("chart.png")]));
  expect(over.defaultPrevented).toBe(true);
  // The message box shows where the files will go.
  expect(host.querySelector(".composer-area")!.classList.contains("dragging")).toBe(true);
  await fire(messages, "drop", "dataTransfer", transfer([png("chart.png")]));
  await fire(
    host.querySelector(".composer-area")!,
    "drop",
    "dataTransfer",
    transfer([png("b.png")]),
  );
  expect(uploads.map((u) => u.file.name)).toEqual(["chart.png", "b.png"]);
  expect(chips()).toHaveLength(2);
});

it("removing chips from the keyboard keeps the focus on the next ×, then the message box", async () => {
  await pick(png("a.png"), png("b.png"), png("c.png"));
  const remove = (name: string) =>
    host.querySelector<HTMLButtonElement>(`button[aria-label="Remove ${name}"]`)!;
  remove("b.png").focus();
  await click(remove("b.png"));
  expect(document.activeElement).toBe(remove("c.png"));
  await click(remove("c.png"));
  expect(document.activeElement).toBe(remove("a.png"));
  await click(remove("a.png"));
  expect(chips()).toHaveLength(0);
  expect(document.activeElement).toBe(box());
});

it("the same file attached twice is uploaded once; the copy's chip says so", async () => {
  const file = png("scan.png");
  await pick(file);
  await pick(file);
  expect(uploads).toHaveLength(1);
  expect(chips()[1]!.querySelector('[role="alert"]')!.textContent).toBe(
    "scan.png is attached already; this copy is left out.",
  );
  // Another file of the same name is another file.
  await pick(new File([new Uint8Array(2048)], "scan.png", { type: "image/png", lastModified: 1 }));
  expect(uploads).toHaveLength(2);
});

it("a file deleted before its refused message went back is named on its chip", async () => {
  await pick(png("kept.png"), png("deleted.png"));
  await act(async () => uploads.forEach((u) => u.store()));
  await settle();
  await type("Compare them");
  await click(sendButton());
  deleted.add("art-deleted.png");
  await render({
    clientMessageId: "m1",
    text: "Compare them",
    attachments: ["art-kept.png", "art-deleted.png"],
  });
  await settle();
  expect(chips()[0]!.textContent).toContain("attached");
  expect(chips()[1]!.querySelector('[role="alert"]')!.textContent).toBe(
    "deleted.png was deleted before the message went: remove it, or attach it again.",
  );
  await click(sendButton());
  expect(sent.at(-1)).toEqual({ text: "Compare them", attachments: ["art-kept.png"] });
});
