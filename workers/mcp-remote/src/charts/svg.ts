// Renders a small chart spec to SVG. SVG because a Worker has no raster library; every string
// from the spec is escaped, so the picture can hold no markup of the caller's.
import { z } from "zod";

export const ChartSpec = z.object({
  type: z.enum(["bar", "line", "scatter", "pie"]),
  title: z.string().max(200).default(""),
  labels: z.array(z.string().max(60)).max(100).default([]),
  series: z
    .array(
      z.object({
        name: z.string().max(60).default(""),
        values: z.array(z.number().finite()).min(1).max(500),
        xs: z.array(z.number().finite()).max(500).optional(),
      }),
    )
    .min(1)
    .max(8),
});
export type ChartSpec = z.infer<typeof ChartSpec>;

const W = 640;
const H = 400;
const PAD = 50;
const COLORS = [
  "#3857d8",
  "#e4572e",
  "#17a398",
  "#f3a712",
  "#8e44ad",
  "#2d3142",
  "#c0392b",
  "#16a085",
];

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
const n = (x: number) => Number(x.toFixed(2));

export function renderChart(spec: ChartSpec): string {
  const body = spec.type === "pie" ? pie(spec) : axes(spec);
  const legend = spec.series
    .map(
      (s, i) =>
        `<text x="${W - PAD}" y="${20 + i * 16}" text-anchor="end" font-size="12" fill="${COLORS[i % COLORS.length]}">${esc(s.name)}</text>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><rect width="100%" height="100%" fill="#fff"/><text x="${W / 2}" y="24" text-anchor="middle" font-size="16" font-family="sans-serif">${esc(spec.title)}</text>${body}${legend}</svg>`;
}

function axes(spec: ChartSpec): string {
  const all = spec.series.flatMap((s) => s.values);
  const max = Math.max(0, ...all);
  const min = Math.min(0, ...all);
  const span = max - min || 1;
  const y = (v: number) => n(H - PAD - ((v - min) / span) * (H - 2 * PAD));
  const count = Math.max(...spec.series.map((s) => s.values.length));
  const xsAll = spec.series.flatMap((s) => s.xs ?? []);
  const xMin = xsAll.length ? Math.min(...xsAll) : 0;
  const xSpan = xsAll.length ? Math.max(...xsAll) - xMin || 1 : Math.max(1, count - 1);
  const xAt = (s: ChartSpec["series"][number], i: number) =>
    n(PAD + (((s.xs?.[i] ?? i) - (s.xs ? xMin : 0)) / xSpan) * (W - 2 * PAD));
  let out = `<line x1="${PAD}" y1="${y(0)}" x2="${W - PAD}" y2="${y(0)}" stroke="#999"/><line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" stroke="#999"/>`;
  out += `<text x="${PAD - 6}" y="${y(max)}" text-anchor="end" font-size="11">${n(max)}</text><text x="${PAD - 6}" y="${y(min)}" text-anchor="end" font-size="11">${n(min)}</text>`;
  spec.series.forEach((s, si) => {
    const color = COLORS[si % COLORS.length];
    if (spec.type === "bar") {
      const slot = (W - 2 * PAD) / count;
      const bw = (slot * 0.8) / spec.series.length;
      s.values.forEach((v, i) => {
        const x = n(PAD + i * slot + slot * 0.1 + si * bw);
        out += `<rect x="${x}" y="${Math.min(y(v), y(0))}" width="${n(bw)}" height="${n(Math.abs(y(v) - y(0)))}" fill="${color}"/>`;
      });
    } else if (spec.type === "line") {
      out += `<polyline fill="none" stroke="${color}" stroke-width="2" points="${s.values.map((v, i) => `${xAt(s, i)},${y(v)}`).join(" ")}"/>`;
    } else {
      out += s.values
        .map((v, i) => `<circle cx="${xAt(s, i)}" cy="${y(v)}" r="4" fill="${color}"/>`)
        .join("");
    }
  });
  const slot = (W - 2 * PAD) / Math.max(1, spec.labels.length);
  out += spec.labels
    .map(
      (l, i) =>
        `<text x="${n(PAD + slot * (i + 0.5))}" y="${H - PAD + 16}" text-anchor="middle" font-size="11">${esc(l)}</text>`,
    )
    .join("");
  return out;
}

function pie(spec: ChartSpec): string {
  const values = spec.series[0]!.values.map((v) => Math.max(0, v));
  const total = values.reduce((a, b) => a + b, 0) || 1;
  const cx = W / 2;
  const cy = H / 2 + 10;
  const r = 140;
  let angle = -Math.PI / 2;
  return values
    .map((v, i) => {
      const a = (v / total) * Math.PI * 2;
      const [x1, y1] = [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
      angle += a;
      const [x2, y2] = [cx + r * Math.cos(angle), cy + r * Math.sin(angle)];
      const label = spec.labels[i] ? `<title>${esc(spec.labels[i]!)}: ${v}</title>` : "";
      return `<path d="M${cx},${cy} L${n(x1)},${n(y1)} A${r},${r} 0 ${a > Math.PI ? 1 : 0} 1 ${n(x2)},${n(y2)} Z" fill="${COLORS[i % COLORS.length]}">${label}</path>`;
    })
    .join("");
}
