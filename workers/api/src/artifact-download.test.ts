// The file name a browser saves a downloaded artifact under.
import { describe, expect, it } from "vitest";
import type { artifacts } from "../../../shared/db/schema";
import { extensionFor } from "../../../web/src/artifacts/file-extension";
import { downloadResponse } from "./artifact-download";

type Row = typeof artifacts.$inferSelect;

async function savedName(title: string, language: string | null): Promise<string> {
  const row = { title, type: "application/vnd.ant.code", language, content: "x = 1" } as Row;
  // Inline content: the bucket is never read.
  const res = await downloadResponse({} as R2Bucket, row, true);
  const header = res.headers.get("Content-Disposition") ?? "";
  return decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(header)?.[1] ?? "");
}

describe("a downloaded artifact", () => {
  it("keeps a title written in another script as its file name", async () => {
    expect(await savedName("Анализ данных", "python")).toBe("Анализ_данных.py");
    expect(await savedName("数据分析", null)).toBe("数据分析.txt");
  });

  it("gets the extension the pane's own Download gives, for every language it knows", async () => {
    for (const language of ["kotlin", "swift", "toml", "c#", "typescript", "nonsense"])
      expect(await savedName("Main", language)).toBe(`Main.${extensionFor(language)}`);
    expect(await savedName("Main", "kotlin")).toBe("Main.kt");
  });

  it("names audio and other bytes by what they are, never as a text file", async () => {
    const name = async (type: string) => {
      const row = { title: "Audio from tts", type, contentType: type, r2Key: "k" } as Row;
      const bucket = { get: () => Promise.resolve({ size: 1, body: "x" }) } as unknown as R2Bucket;
      const res = await downloadResponse(bucket, row, true);
      return /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1];
    };
    expect(await name("audio/ogg")).toBe("Audio_from_tts.ogg");
    expect(await name("audio/webm")).toBe("Audio_from_tts.webm");
    expect(await name("audio/mp4")).toBe("Audio_from_tts.m4a");
    expect(await name("application/octet-stream")).toBe("Audio_from_tts.bin");
    // A file the user attached keeps its own name; a tool's title picks no extension.
    const attached = { title: "data.zip", type: "attachment", contentType: "application/zip" };
    const zip = await downloadResponse(
      { get: () => Promise.resolve({ size: 1, body: "x" }) } as unknown as R2Bucket,
      { ...attached, r2Key: "k" } as Row,
      true,
    );
    expect(zip.headers.get("Content-Disposition")).toContain('filename="data.zip"');
    expect(await name("application/x-msdownload")).toBe("Audio_from_tts.bin");
  });

  it("still strips what a file system refuses", async () => {
    expect(await savedName("../../etc/passwd", null)).toBe("etc_passwd.txt");
  });

  it("answers a stored content type a header cannot carry with plain bytes, not an error", async () => {
    const row = {
      title: "Image from render",
      type: "image/png",
      language: null,
      content: "<script>alert(1)</script>",
      contentType: "text/html\r\nSet-Cookie: session=stolen",
    } as Row;
    const res = await downloadResponse({} as R2Bucket, row, false);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
