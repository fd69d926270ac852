// Text files go to the model inline, whole when they fit and cut with a pointer when not, in a
// fence the file cannot close.
import { describe, expect, it } from "vitest";
import type { AttachmentPart } from "../protocol/messages";
import { attachmentParts } from "./attachment-parts";
import { TokenEstimator } from "./context-budget";

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

  it("closes the fence right after a file's own last line break, with no blank line", () => {
    expect(textOf("a,b\n1,2\n", 100)).toMatch(/\n```\na,b\n1,2\n```$/);
    expect(textOf("a,b\r\n1,2\r\n", 100)).toMatch(/\n```\na,b\r\n1,2\n```$/);
  });

  it("fences a file holding a fence with a longer one", () => {
    const text = textOf("before\n````\ninside\n````\nafter", 1000);
    expect(text.split("\n")[1]).toBe("`````");
    expect(text.endsWith("\n`````")).toBe(true);
  });
});

describe("a PDF in the context budget", () => {
  it("counts a few thousand tokens per page, not a token per base64 character", () => {
    // A 300 KB PDF (about 10 pages): 400,000 base64 characters.
    const tokens = new TokenEstimator().message({
      role: "user",
      content: [
        {
          type: "document",
          mediaType: "application/pdf",
          data: "A".repeat(400_000),
          name: "a.pdf",
        },
      ],
    });
    expect(tokens).toBeGreaterThan(10_000);
    expect(tokens).toBeLessThan(20_000);
  });
});
