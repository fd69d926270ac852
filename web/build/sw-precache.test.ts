import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildOf, fillServiceWorker, PLACEHOLDER, swPrecache } from "./sw-precache";

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
    expect(buildOf(files, ["<html>"]).assets).toEqual([
      "/assets/ChatView-BBBB.js",
      "/assets/ChatView-CCCC.css",
      "/assets/KaTeX_Main-Regular-DDDD.woff2",
      "/assets/graph-layout.worker-GGGG.js",
      "/assets/index-AAAA.js",
    ]);
  });

  it("is a new version when a hashed file, the page, the manifest or an icon changes, the same one otherwise", () => {
    const shell = ["index.html\n<html>", "icon.svg\n<svg/>", "manifest.webmanifest\n{}"];
    const { version } = buildOf(files, shell);
    expect(buildOf([...files].reverse(), shell).version).toBe(version);
    expect(buildOf([...files, "assets/Settings-HHHH.js"], shell).version).not.toBe(version);
    expect(buildOf(files, ["index.html\n<html lang=en>", ...shell.slice(1)]).version).not.toBe(
      version,
    );
    expect(
      buildOf(files, [...shell.slice(0, 2), 'manifest.webmanifest\n{"name":"x"}']).version,
    ).not.toBe(version);
    expect(
      buildOf(files, [shell[0]!, "icon.svg\n<svg><circle/></svg>", shell[2]!]).version,
    ).not.toBe(version);
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

describe("the build step", () => {
  // A built out dir: the page, the public folder's files, and the bundle's names.
  function build(dir: string, manifest: string): string {
    writeFileSync(join(dir, "index.html"), '<script src="/assets/index-AAAA.js"></script>');
    writeFileSync(join(dir, "manifest.webmanifest"), manifest);
    writeFileSync(join(dir, "sw.js"), `${PLACEHOLDER}\n`);
    const writeBundle = swPrecache().writeBundle as (
      options: { dir: string },
      bundle: Record<string, unknown>,
    ) => void;
    writeBundle({ dir }, { "assets/index-AAAA.js": {}, "assets/KaTeX-BBBB.ttf": {} });
    return readFileSync(join(dir, "sw.js"), "utf8");
  }

  it("writes the build into dist/sw.js, and a new manifest alone makes a new worker", () => {
    const dir = mkdtempSync(join(tmpdir(), "sw-precache-"));
    try {
      const first = build(dir, '{"name":"Thinking Chat"}');
      expect(first).toMatch(
        /^const BUILD = \{"version":"[0-9a-f]{12}","assets":\["\/assets\/index-AAAA\.js"\]\};/,
      );
      expect(build(dir, '{"name":"Thinking Chat"}')).toBe(first);
      // Served from the worker's cache, a changed manifest (or icon) reaches users only in a new worker.
      expect(build(dir, '{"name":"Thinking Chat","theme_color":"#000"}')).not.toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
