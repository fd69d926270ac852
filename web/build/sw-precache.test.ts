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
    writeFileSync(
      join(dir, "index.html"),
      '<html><head></head><script src="/assets/index-AAAA.js"></script></html>',
    );
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

  it("writes the worker's build id into the page, so an open page can tell a new build from its own", () => {
    const dir = mkdtempSync(join(tmpdir(), "sw-precache-"));
    const writeBundle = swPrecache().writeBundle as (
      options: { dir: string },
      bundle: Record<string, unknown>,
    ) => void;
    const versionOf = (text: string) => /"version":"([0-9a-f]{12})"/.exec(text)?.[1];
    try {
      build(dir, "{}");
      const page = readFileSync(join(dir, "index.html"), "utf8");
      const version = versionOf(readFileSync(join(dir, "sw.js"), "utf8"));
      expect(version).toBeDefined();
      expect(page).toContain(`<meta name="build-id" content="${version}" /></head>`);
      // Built again over its own output (a deploy step run twice): one id, the same one.
      writeFileSync(join(dir, "sw.js"), `${PLACEHOLDER}\n`);
      writeBundle({ dir }, { "assets/index-AAAA.js": {}, "assets/KaTeX-BBBB.ttf": {} });
      const again = readFileSync(join(dir, "index.html"), "utf8");
      expect(again.match(/name="build-id"/g)).toHaveLength(1);
      expect(versionOf(readFileSync(join(dir, "sw.js"), "utf8"))).toBe(version);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
