import { describe, expect, it } from "vitest";
import { buildOf, fillServiceWorker, PLACEHOLDER } from "./sw-precache";

const files = [
  "index.html",
  "assets/index-AAAA.js",
  "assets/ChatView-BBBB.js",
  "assets/ChatView-CCCC.css",
  "assets/KaTeX_Main-Regular-DDDD.woff2",
  "assets/KaTeX_Main-Regular-EEEE.woff",
  "assets/KaTeX_Main-Regular-FFFF.ttf",
  "assets/graph-layout.worker-GGGG.js",
];

describe("the build's list for its service worker", () => {
  it("names every script, style and woff2 font, not the fallback fonts nor the page", () => {
    expect(buildOf(files, "<html>").assets).toEqual([
      "/assets/ChatView-BBBB.js",
      "/assets/ChatView-CCCC.css",
      "/assets/KaTeX_Main-Regular-DDDD.woff2",
      "/assets/graph-layout.worker-GGGG.js",
      "/assets/index-AAAA.js",
    ]);
  });

  it("is a new version when a file or the page changes, the same one otherwise", () => {
    const { version } = buildOf(files, "<html>");
    expect(buildOf([...files].reverse(), "<html>").version).toBe(version);
    expect(buildOf([...files, "assets/Settings-HHHH.js"], "<html>").version).not.toBe(version);
    expect(buildOf(files, "<html lang=en>").version).not.toBe(version);
  });

  it("fills sw.js's placeholder, and says how to fix a sw.js without one", () => {
    const build = { version: "abc", assets: ["/assets/a.js"] };
    expect(fillServiceWorker(`// top\n${PLACEHOLDER}\nrest`, build)).toBe(
      '// top\nconst BUILD = {"version":"abc","assets":["/assets/a.js"]};\nrest',
    );
    expect(() => fillServiceWorker("const BUILD = {};", build)).toThrow(
      /no line `const BUILD = \{ version: "dev", assets: \[\] \};`.*web\/public\/sw\.js/,
    );
  });
});
