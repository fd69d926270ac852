// Text files go to the model inline, whole when they fit and cut with a pointer when not, in a
// fence the file cannot close.
import { describe, expect, it } from "vitest";
import type { AttachmentPart } from "../protocol/messages";
import { attachmentParts } from "./attachment-parts";

const part = (size: number): AttachmentPart => ({
  type: "attachment",
  artifactId: "art-1",
  name: "notes.md",
  contentType: "text/markdown",
  size,
  kind: "text",
});
const all = { images: true, pdfDocuments: true };
const textOf = (text: string, max: number) => {
  const [first] = attachmentParts({ part: part(text.length), text }, all, max).parts;
  return first?.type === "text" ? first.text : "";
};

describe("text attachments for the model", () => {
  it("sends a file that fits whole, after a label naming it", () => {
    const text = textOf("# Results\nAll good.", 100);
    expect(text).toBe(
      "[Attachment: notes.md (text/markdown, 19 bytes), artifact art-1]\n```\n# Results\nAll good.\n```",
    );
  });

  it("cuts a longer file and says where the whole of it is", () => {
    const text = textOf("x".repeat(500), 100);
    expect(text).toContain(`${"x".repeat(100)}\n… [cut here: only the first 100 characters`);
    expect(text).not.toContain("x".repeat(101));
    expect(text).toContain("kept as artifact art-1");
  });

  it("fences a file holding a fence with a longer one", () => {
    const text = textOf("before\n````\ninside\n````\nafter", 1000);
    expect(text.split("\n")[1]).toBe("`````");
    expect(text.endsWith("\n`````")).toBe(true);
  });
});
