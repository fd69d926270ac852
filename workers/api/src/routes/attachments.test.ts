// Uploading attachments: the type comes from the bytes, the limits refuse with a clear error and
// a refused file leaves nothing behind, in R2 or in D1. (The test worker allows 1 MiB per file
// and 3 MiB per user: workers/api/vitest.config.ts.)
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  errorOf,
  type TestUser,
} from "../../../../tests/support/helpers";
import { attach, pdfBytes, pngBytes, upload } from "../../../../tests/support/attachment-fixtures";
import type { Conversation } from "../../../../durable-objects/conversation/conversation";
import { pdfTextCache } from "../../../../durable-objects/conversation/history-options";

const MiB = 1024 * 1024;

interface UploadedArtifact {
  id: string;
  type: string;
  title: string;
  contentType: string;
  size: number;
  metadata: { attachment: { name: string; contentType: string; size: number; kind: string } };
}

async function stored(conversationId: string) {
  const rows = await env.DB.prepare("SELECT id FROM artifacts WHERE conversation_id = ?")
    .bind(conversationId)
    .all();
  const objects = await env.ARTIFACTS.list({ prefix: `conversations/${conversationId}/` });
  return { rows: rows.results.length, objects: objects.objects.length };
}

let alice: TestUser;
beforeAll(async () => {
  alice = await createUser();
});

describe("POST /api/conversations/:id/attachments", () => {
  it("takes a PNG named .pdf as an image, and keeps its bytes in R2", async () => {
    const { id } = await createConversation(alice);
    const res = await upload(alice, id, "paper.pdf", pngBytes());
    expect(res.status).toBe(201);
    const { artifact } = (await res.json()) as { artifact: UploadedArtifact };
    expect(artifact).toMatchObject({
      type: "attachment",
      title: "paper.pdf",
      contentType: "image/png",
      size: pngBytes().length,
      metadata: {
        attachment: {
          name: "paper.pdf",
          contentType: "image/png",
          size: pngBytes().length,
          kind: "image",
        },
      },
    });
    const download = await api(alice, `/api/artifacts/${artifact.id}/download`);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(pngBytes());
    expect(
      (await env.ARTIFACTS.list({ prefix: `conversations/${id}/attachments/` })).objects,
    ).toHaveLength(1);
  });

  it.each([
    ["Résumé – 2024 (final) 🚀 #1.md", "Résumé – 2024 (final) 🚀 #1.md"],
    ["line\nbreak\tand\u0007bell.txt", "linebreakandbell.txt"],
    // A right-to-left override would show "exe.txt" for this name in the message and the pane.
    ["report\u202etxt.exe", "reporttxt.exe"],
    ["\u2067isolated\u2069.md", "isolated.md"],
    ['the "final" report.md', 'the "final" report.md'],
  ])("keeps the name %j as %j", async (name, shown) => {
    const { id } = await createConversation(alice);
    const res = await upload(alice, id, name, "some words");
    expect(res.status).toBe(201);
    const { artifact } = (await res.json()) as { artifact: UploadedArtifact };
    expect([artifact.title, artifact.metadata.attachment.name]).toEqual([shown, shown]);
  });

  it.each([
    ["notes.md", "# Results\n\nIt worked.", "text/markdown", "text"],
    ["table.csv", 'name,dose\n"aspirin, low",81\nibuprofen,200\n', "text/csv", "table"],
    ["table.tsv", "name\tdose\naspirin\t81\n", "text/tab-separated-values", "table"],
    ["data.json", '{"doses": [81, 325]}', "application/json", "json"],
    ["broken.json", '{"doses": [81,', "text/plain", "text"],
    ["ragged.csv", "a,b\n1,2,3\n", "text/plain", "text"],
    ["readme", "plain words", "text/plain", "text"],
    ["scan", pdfBytes(), "application/pdf", "pdf"],
  ])("reads %s as %s", async (name, body, contentType, kind) => {
    const { id } = await createConversation(alice);
    const res = await upload(alice, id, name, body);
    expect(res.status).toBe(201);
    const { artifact } = (await res.json()) as { artifact: UploadedArtifact };
    expect(artifact.metadata.attachment).toMatchObject({ name, contentType, kind });
  });

  it("drops the bidi override that would show invoice\u202Efdp.exe as invoiceexe.pdf", async () => {
    const { id } = await createConversation(alice);
    const res = await upload(alice, id, "invoice\u202Efdp.exe", "plain words");
    expect(res.status).toBe(201);
    const { artifact } = (await res.json()) as { artifact: UploadedArtifact };
    expect(artifact.title).toBe("invoicefdp.exe");
    expect(artifact.metadata.attachment.name).toBe("invoicefdp.exe");
  });

  it("refuses a type not on the list, naming the type it found, and stores nothing", async () => {
    const { id } = await createConversation(alice);
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]);
    const res = await upload(alice, id, "results.csv", zip);
    expect(res.status).toBe(415);
    const error = await errorOf(res);
    expect(error.code).toBe("unsupported_media_type");
    expect(error.message).toContain("application/zip");
    const binary = await upload(alice, id, "blob.txt", new Uint8Array([0, 1, 2, 200, 255]));
    expect(binary.status).toBe(415);
    expect(await stored(id)).toEqual({ rows: 0, objects: 0 });
  });

  it("refuses an empty file by its name, and stores nothing", async () => {
    const { id } = await createConversation(alice);
    const res = await upload(alice, id, "notes.txt", new Uint8Array());
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(
      "'notes.txt' is empty: attach a file with something in it.",
    );
    expect(await stored(id)).toEqual({ rows: 0, objects: 0 });
  });

  it("refuses a file over the per-file limit and stores nothing", async () => {
    const user = await createUser();
    const { id } = await createConversation(user);
    const res = await upload(user, id, "big.txt", "x".repeat(MiB + 1));
    expect(res.status).toBe(413);
    const error = (await res.json()) as {
      error: { code: string; message: string; details: { limit: string; maxBytes: number } };
    };
    expect(error.error.code).toBe("payload_too_large");
    expect(error.error.message).toContain("1 MiB");
    expect(error.error.details).toMatchObject({ limit: "file", maxBytes: MiB });
    expect(await stored(id)).toEqual({ rows: 0, objects: 0 });
  });

  it("refuses an oversized file that declares no length once the limit is passed, without reading the rest", async () => {
    const user = await createUser();
    const { id } = await createConversation(user);
    const boundary = "----limit-test";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="endless.txt"\r\n` +
        "Content-Type: text/plain\r\n\r\n",
    );
    const chunk = new Uint8Array(64 * 1024).fill(0x78);
    // 8 MiB of file, sent as it is read (chunked: no Content-Length to refuse it by).
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent >= 8 * MiB) {
          controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
          return controller.close();
        }
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await api(user, `/api/conversations/${id}/attachments`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({
      code: "payload_too_large",
      message: expect.stringContaining("larger than the 1 MiB an attachment may be"),
    });
    // Read up to the limit and the room for the form around it, not a chunk more than that.
    expect(sent).toBeLessThanOrEqual(MiB + 64 * 1024 + 2 * chunk.length);
    expect(await stored(id)).toEqual({ rows: 0, objects: 0 });
  });

  it("tells the browser the largest file it takes (so it refuses one before sending it all)", async () => {
    const user = await createUser();
    const { id } = await createConversation(user);
    const res = await api(user, `/api/conversations/${id}/attachments/limits`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ maxBytes: MiB, maxFilesPerMessage: 10 });
    const other = await api(alice, `/api/conversations/${id}/attachments/limits`);
    expect(other.status).toBe(404);
  });

  it("refuses a file past the user's quota, says how much is left, and stores nothing", async () => {
    const user = await createUser();
    const first = await createConversation(user);
    const second = await createConversation(user);
    for (const n of [1, 2]) {
      const res = await upload(user, first.id, `part${n}.txt`, "a".repeat(MiB));
      expect(res.status).toBe(201);
    }
    const third = await upload(user, second.id, "part3.txt", "b".repeat(MiB - 10));
    expect(third.status).toBe(201);
    const res = await upload(user, second.id, "one-too-many.txt", "c".repeat(100));
    expect(res.status).toBe(413);
    const body = (await res.json()) as {
      error: { code: string; message: string; details: Record<string, number | string> };
    };
    expect(body.error.code).toBe("quota_exceeded");
    expect(body.error.message).toContain("10 bytes is left");
    expect(body.error.details).toMatchObject({
      limit: "quota",
      quotaBytes: 3 * MiB,
      remainingBytes: 10,
    });
    expect(await stored(second.id)).toEqual({ rows: 1, objects: 1 });
    // Deleting an attachment makes room again.
    const { items } = (await (
      await api(user, `/api/conversations/${first.id}/artifacts`)
    ).json()) as { items: Array<{ id: string }> };
    await api(user, `/api/artifacts/${items[0]!.id}`, { method: "DELETE" });
    expect((await upload(user, second.id, "now-it-fits.txt", "c".repeat(100))).status).toBe(201);
  });

  it("a participant attaches to a shared conversation; the file counts against the owner's quota", async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const owner = await createUser(`owner-${suffix}`);
    const bo = await createUser(`bo-${suffix}`);
    const { id } = await createConversation(owner);
    const shared = await api(owner, `/api/conversations/${id}/members`, {
      method: "PUT",
      json: { user: bo.id, role: "participant" },
    });
    expect(shared.status).toBe(200);

    const res = await upload(bo, id, "minutes.md", "# Minutes");
    expect(res.status).toBe(201);
    const { artifact } = (await res.json()) as { artifact: UploadedArtifact };
    expect(artifact).toMatchObject({ type: "attachment", title: "minutes.md" });
    const download = await api(bo, `/api/artifacts/${artifact.id}/download`);
    expect(await download.text()).toBe("# Minutes");

    // The owner's attachments fill their quota (3 MiB here): bo's next file does not fit, and
    // the refusal says whose quota it is, not bo's own (bo has stored nothing of theirs).
    for (const n of [1, 2])
      expect((await upload(owner, id, `p${n}.txt`, "a".repeat(MiB))).status).toBe(201);
    const full = await upload(bo, id, "more.txt", "b".repeat(MiB - 8));
    expect(full.status).toBe(413);
    const error = await errorOf(full);
    expect(error.code).toBe("quota_exceeded");
    expect(error.message).toMatch(/owner's attachment quota of 3 MiB/);
    expect(error.message).toMatch(/ask the owner to make room/);
    expect(await stored(id)).toEqual({ rows: 3, objects: 3 });
  });

  it("counts a participant's files toward the owner's quota, and says so when it is full", async () => {
    const owner = await createUser();
    const member = await createUser();
    const theirs = await createConversation(owner);
    const shared = await api(owner, `/api/conversations/${theirs.id}/members`, {
      method: "PUT",
      json: { user: member.id, role: "participant" },
    });
    expect(shared.status).toBe(200);
    for (const n of [1, 2, 3]) {
      const res = await upload(member, theirs.id, `part${n}.txt`, "a".repeat(MiB - 10));
      expect(res.status).toBe(201);
    }
    // The owner's quota (3 MiB) is full: neither of them can add a file of 100 bytes.
    const mine = await createConversation(owner);
    const ownerRefused = await upload(owner, mine.id, "mine.txt", "b".repeat(100));
    expect(ownerRefused.status).toBe(413);
    expect((await errorOf(ownerRefused)).message).toContain("30 bytes is left");
    const memberRefused = await upload(member, theirs.id, "more.txt", "c".repeat(100));
    expect(memberRefused.status).toBe(413);
    expect((await errorOf(memberRefused)).message).toBe(
      "Files in this conversation count toward its owner's attachment quota of 3 MiB, which this " +
        "file would pass: 30 bytes is left and this file is 100 bytes. Attach a smaller file, or " +
        "ask the owner to make room.",
    );
    expect(await stored(theirs.id)).toEqual({ rows: 3, objects: 3 });
    // The participant's own quota is untouched.
    const own = await createConversation(member);
    expect((await upload(member, own.id, "own.txt", "d".repeat(100))).status).toBe(201);
  });

  it("answers 404 for another user's conversation, and 415 for a body that is not a form", async () => {
    const bob = await createUser();
    const { id } = await createConversation(alice);
    expect((await upload(bob, id, "a.txt", "hello")).status).toBe(404);
    const json = await api(alice, `/api/conversations/${id}/attachments`, {
      method: "POST",
      json: { file: "hello" },
    });
    expect(json.status).toBe(415);
    const noFile = new FormData();
    noFile.set("other", "x");
    const missing = await api(alice, `/api/conversations/${id}/attachments`, {
      method: "POST",
      body: noFile,
    });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toContain("'file'");
    expect(await stored(id)).toEqual({ rows: 0, objects: 0 });
  });
});

describe("DELETE /api/artifacts/:id of an attachment", () => {
  it("drops the PDF's text its conversation kept for its turns", async () => {
    const conv = await createConversation(alice);
    const id = await attach(alice, conv.id, "paper.pdf", pdfBytes());
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conv.id));
    const kept = () => runInDurableObject(stub, (i: Conversation) => pdfTextCache(i.store).get(id));
    // As a turn for a model that does not read PDFs leaves it.
    await runInDurableObject(stub, (i: Conversation) => pdfTextCache(i.store).set(id, "text"));
    expect(await kept()).toBe("text");

    expect((await api(alice, `/api/artifacts/${id}`, { method: "DELETE" })).status).toBe(204);
    expect(await kept()).toBeNull();
  });
});

describe("GET /api/artifacts/:id/download?inline=1", () => {
  it("shows a PDF inline only when asked, always with nosniff", async () => {
    const { id } = await createConversation(alice);
    const res = await upload(alice, id, "paper.pdf", pdfBytes());
    const { artifact } = (await res.json()) as { artifact: UploadedArtifact };
    const plain = await api(alice, `/api/artifacts/${artifact.id}/download`);
    expect(plain.headers.get("content-disposition")).toMatch(/^attachment; filename="paper.pdf"/);
    const inline = await api(alice, `/api/artifacts/${artifact.id}/download?inline=1`);
    expect(inline.headers.get("content-disposition")).toMatch(/^inline; filename="paper.pdf"/);
    expect(inline.headers.get("content-type")).toBe("application/pdf");
    expect(inline.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await upload(alice, id, "notes.md", "# hi");
    const textId = ((await text.json()) as { artifact: UploadedArtifact }).artifact.id;
    const textInline = await api(alice, `/api/artifacts/${textId}/download?inline=1`);
    expect(textInline.headers.get("content-disposition")).toMatch(/^attachment;/);
  });
});
