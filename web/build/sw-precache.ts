// Writes the build's hashed files into dist/sw.js, so the service worker caches every part of the
// app at install (lazy ones included) and a new build is a new worker. Fallback font formats
// (.woff, .ttf) stay out: every browser that runs a service worker takes the .woff2 beside them.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";

/** The placeholder web/public/sw.js carries until a build fills it in. */
export const PLACEHOLDER = 'const BUILD = { version: "dev", assets: [] };';

const PRECACHED = /\.(js|css|woff2)$/;

export interface Build {
  version: string;
  assets: string[];
}

/** The build's id and the files its worker keeps, from the bundle's file names and its page. */
export function buildOf(fileNames: string[], page: string): Build {
  const assets = fileNames
    .filter((name) => name.startsWith("assets/") && PRECACHED.test(name))
    .map((name) => `/${name}`)
    .sort();
  // Names carry their content's hash; the page is in too, as its markup can change alone.
  const version = createHash("sha256")
    .update(assets.join("\n"))
    .update(page)
    .digest("hex")
    .slice(0, 12);
  return { version, assets };
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
    // After the write: the public folder (sw.js) and index.html are in the out dir by then.
    writeBundle(options, bundle) {
      const outDir = options.dir;
      if (!outDir) throw new Error("sw-precache needs build.outDir");
      const sw = join(outDir, "sw.js");
      const page = readFileSync(join(outDir, "index.html"), "utf8");
      const build = buildOf(Object.keys(bundle), page);
      writeFileSync(sw, fillServiceWorker(readFileSync(sw, "utf8"), build));
    },
  };
}
