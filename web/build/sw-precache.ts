// Writes the build's hashed files into dist/sw.js, so the service worker caches every part of the
// app at install (lazy ones included) and a new build is a new worker. Fallback font formats
// (.woff, .ttf) stay out: every browser that runs a service worker takes the .woff2 beside them.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";

/** The placeholder web/public/sw.js carries until a build fills it in. */
export const PLACEHOLDER = 'const BUILD = { version: "dev", assets: [] };';

const PRECACHED = /\.(js|css|woff2)$/;

export interface Build {
  version: string;
  assets: string[];
}

/**
 * The build's id and the files its worker keeps, from the bundle's file names and the contents
 * of the files whose names never change (the page, the manifest, the icons).
 */
export function buildOf(fileNames: string[], unhashed: string[]): Build {
  const assets = fileNames
    .filter((name) => name.startsWith("assets/") && PRECACHED.test(name))
    .map((name) => `/${name}`)
    .sort();
  // Names carry their content's hash; the others' contents are in too, as each can change alone
  // (the worker serves them from its cache, so only a new worker brings a new icon).
  const hash = createHash("sha256").update(assets.join("\n"));
  for (const content of unhashed) hash.update("\0").update(content);
  const version = hash.digest("hex").slice(0, 12);
  return { version, assets };
}

const BUILD_META = /<meta name="build-id" content="[^"]*" \/>/g;

/**
 * The page with its build's id in a `<meta name="build-id">`: the running page compares it with
 * a new service worker's to tell whether it is already that build. The id is of the page without
 * it (a page built again is stripped of the last one first).
 */
export function withoutBuildId(page: string): string {
  return page.replace(BUILD_META, "");
}
export function withBuildId(page: string, version: string): string {
  if (!page.includes("</head>"))
    throw new Error("index.html has no </head> for the build id: put it back (web/index.html)");
  return withoutBuildId(page).replace(
    "</head>",
    `<meta name="build-id" content="${version}" /></head>`,
  );
}

/** sw.js with the build in place of its placeholder. */
export function fillServiceWorker(source: string, build: Build): string {
  if (!source.includes(PLACEHOLDER))
    throw new Error(
      `sw.js has no line \`${PLACEHOLDER}\` for the build to fill in: put it back (web/public/sw.js)`,
    );
  return source.replace(PLACEHOLDER, `const BUILD = ${JSON.stringify(build)};`);
}

export function swPrecache(): Plugin {
  return {
    name: "sw-precache",
    apply: "build",
    // After the write: the public folder (sw.js, manifest, icons) and index.html are there by then.
    writeBundle(options, bundle) {
      const outDir = options.dir;
      if (!outDir) throw new Error("sw-precache needs build.outDir");
      const sw = join(outDir, "sw.js");
      const page = join(outDir, "index.html");
      const contentOf = (name: string) => {
        const content = readFileSync(join(outDir, name), "utf8");
        return name === "index.html" ? withoutBuildId(content) : content;
      };
      const unhashed = readdirSync(outDir, { withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name !== "sw.js")
        .map((entry) => entry.name)
        .sort()
        .map((name) => `${name}\n${contentOf(name)}`);
      const build = buildOf(Object.keys(bundle), unhashed);
      writeFileSync(sw, fillServiceWorker(readFileSync(sw, "utf8"), build));
      writeFileSync(page, withBuildId(readFileSync(page, "utf8"), build.version));
    },
  };
}
