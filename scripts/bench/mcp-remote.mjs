// mcp-remote charts: CPU time to lay out, rasterise and PNG-encode each chart type (the Worker's
// only CPU-heavy tool), and the size of the image it returns. Runs the Worker's own code in Node.
import { build } from "esbuild";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { root } from "../lib/wrangler.mjs";

const out = join(mkdtempSync(join(tmpdir(), "bench-mcp-remote-")), "charts.mjs");
await build({
  stdin: {
    contents: [
      'export { layoutChart } from "./workers/mcp-remote/src/charts/layout";',
      'export { rasterize } from "./workers/mcp-remote/src/charts/raster";',
      'export { encodePng } from "./workers/mcp-remote/src/charts/png";',
      'export { toSvg } from "./workers/mcp-remote/src/charts/svg";',
      'export { ChartSpec } from "./workers/mcp-remote/src/charts/spec";',
    ].join("\n"),
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  format: "esm",
  platform: "neutral",
  outfile: out,
  logLevel: "warning",
});
const { layoutChart, rasterize, encodePng, toSvg, ChartSpec } = await import(pathToFileURL(out));

const wave = (n, k) => Array.from({ length: n }, (_, i) => Math.sin(i / 7 + k) * 50 + 60);
const specs = {
  "bar 3×8": {
    type: "bar",
    title: "Responses by arm",
    labels: Array.from({ length: 8 }, (_, i) => `arm ${i + 1}`),
    series: [0, 1, 2].map((k) => ({ name: `s${k}`, values: wave(8, k) })),
  },
  "line 8×500": {
    type: "line",
    title: "Eight long series",
    series: Array.from({ length: 8 }, (_, k) => ({ name: `s${k}`, values: wave(500, k) })),
  },
  "scatter 4×500": {
    type: "scatter",
    series: Array.from({ length: 4 }, (_, k) => ({ name: `s${k}`, values: wave(500, k) })),
  },
  "pie 12": {
    type: "pie",
    title: "Twelve slices",
    labels: Array.from({ length: 12 }, (_, i) => `slice ${i + 1}`),
    series: [{ values: wave(12, 0) }],
  },
};

const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const RUNS = 9;
console.log("chart           PNG ms (median of 9)   PNG bytes   SVG ms   SVG bytes");
for (const [name, raw] of Object.entries(specs)) {
  const spec = ChartSpec.parse(raw);
  const png = [];
  let pngBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    pngBytes = (await encodePng(rasterize(layoutChart(spec)))).length;
    png.push(performance.now() - t);
  }
  const svg = [];
  let svgBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    svgBytes = toSvg(layoutChart(spec)).length;
    svg.push(performance.now() - t);
  }
  console.log(
    `${name.padEnd(16)}${median(png).toFixed(1).padStart(8)}${String(pngBytes).padStart(23)}${median(svg).toFixed(2).padStart(9)}${String(svgBytes).padStart(12)}`,
  );
}
console.log(
  "(local machine, Node; a Worker's CPU differs. PNG is 640×400 drawn at 2× and averaged.)",
);
