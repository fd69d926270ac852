import { describe, expect, it } from "vitest";
import { isSameOriginImage, linkKind } from "./safe-urls";

describe("linkKind", () => {
  it("allows the web, mail, our own paths and fragments", () => {
    expect(linkKind("https://example.com/a?b#c")).toBe("web");
    expect(linkKind("HTTP://example.com")).toBe("web");
    expect(linkKind("mailto:a@example.com")).toBe("mail");
    expect(linkKind("/api/artifacts/abc/download")).toBe("same-origin");
    expect(linkKind("#user-content-fn-1")).toBe("fragment");
  });

  it("refuses every other scheme and anything a browser could read as another host", () => {
    for (const url of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "blob:https://example.com/1",
      "file:///etc/passwd",
      "//evil.example/x",
      "/\\evil.example/x",
      "/\t/evil.example/x",
      "https://evil.example/\nx",
      "https:evil.example",
      "relative/path",
      // Start links: they would sign the reader in as someone else.
      "/#token=tc_someone_else",
      "#token=tc_someone_else",
      "http://127.0.0.1:8787/?c=x#a=1&token=tc_someone_else",
      "",
      null,
      undefined,
    ]) {
      expect(linkKind(url), JSON.stringify(url)).toBeNull();
    }
  });
});

describe("isSameOriginImage", () => {
  it("allows only a path on our origin", () => {
    expect(isSameOriginImage("/api/artifacts/abc/download")).toBe(true);
    for (const url of [
      "https://evil.example/pixel.png",
      "http://localhost/x.png",
      "//evil.example/p.png",
      "/\\evil.example/p.png",
      "/ /evil.example/p.png",
      "data:image/png;base64,iVBORw0KGgo=",
      "blob:https://app.example/1",
      "x",
      "",
      null,
    ]) {
      expect(isSameOriginImage(url), JSON.stringify(url)).toBe(false);
    }
  });
});
