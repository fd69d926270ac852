// Uploading attachments in the workerd tests; the files themselves are in attachment-files.ts.
import { api, type TestUser } from "./helpers";

export { PDF_TEXT, PNG_BASE64, pdfBytes, pngBytes } from "./attachment-files";

/** POST /api/conversations/:id/attachments with one file. */
export function upload(
  user: TestUser,
  conversationId: string,
  name: string,
  bytes: Uint8Array<ArrayBuffer> | string,
): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([bytes], name));
  return api(user, `/api/conversations/${conversationId}/attachments`, {
    method: "POST",
    body: form,
  });
}

/** Uploads a file that must be accepted; its artifact id. */
export async function attach(
  user: TestUser,
  conversationId: string,
  name: string,
  bytes: Uint8Array<ArrayBuffer> | string,
): Promise<string> {
  const res = await upload(user, conversationId, name, bytes);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { artifact: { id: string } }).artifact.id;
}
