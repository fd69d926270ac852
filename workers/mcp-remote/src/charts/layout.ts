// Lays a chart out as plain shapes once; the SVG writer and the rasteriser both draw these.
import type { ChartSpec } from "./spec";

export type Shape =
  | { kind: "rect"; x: number; y: number; w: number; h: number; fill: string }
  | { kind: "polyline"; points: Array<[number, number]>; stroke: string; width: number }
  | { kind: "circle"; cx: number; cy: number; r: number; fill: string }
  /** A pie slice; angles in radians, clockwise from 3 o'clock (screen coordinates). */
  | { kind: "wedge"; cx: number; cy: number; r: number; start: number; end: number; fill: string }
  | {
      kind: "text";
      x: number;
      y: number;
      text: string;
      size: number;
      anchor: "start" | "middle" | "end";
      fill: string;
    };

export interface ChartLayout {
  width: number;
  height: number;
  background: string;
  shapes: Shape[];
}

export const WIDTH = 640;
export const HEIGHT = 400;
const PAD = 56;
export const COLORS = [
  "#3857d8",
  "#e4572e",
  "#17a398",
  "#f3a712",
  "#8e44ad",
  "#2d3142",
  "#c0392b",
  "#16a085",
];
const AXIS = "#888888";
const INK = "#222222";
const color = (i: number) => COLORS[i % COLORS.length]!;
const round = (x: number) => Math.round(x * 100) / 100;

export function layoutChart(spec: ChartSpec): ChartLayout {
  const shapes: Shape[] = [];
  if (spec.title)
    shapes.push({
      kind: "text",
      x: WIDTH / 2,
      y: 28,
      text: spec.title,
      size: 16,
      anchor: "middle",
      fill: INK,
    });
  if (spec.type === "pie") pie(spec, shapes);
  else axes(spec, shapes);
  return { width: WIDTH, height: HEIGHT, background: "#ffffff", shapes };
}

function legend(names: string[], shapes: Shape[]) {
  names.forEach((name, i) => {
    if (!name) return;
    const y = 48 + i * 16;
    shapes.push({ kind: "rect", x: WIDTH - PAD - 10, y: y - 9, w: 10, h: 10, fill: color(i) });
    shapes.push({
      kind: "text",
      x: WIDTH - PAD - 16,
      y,
      text: name,
      size: 11,
      anchor: "end",
      fill: INK,
    });
  });
}

function axes(spec: ChartSpec, shapes: Shape[]) {
  const all = spec.series.flatMap((s) => s.values);
  // Bars grow from zero; lines and points use the data's own range.
  const max = Math.max(spec.type === "bar" ? 0 : -Infinity, ...all);
  const min = Math.min(spec.type === "bar" ? 0 : Infinity, ...all);
  const span = max - min || 1;
  const top = PAD;
  const bottom = HEIGHT - PAD;
  const y = (v: number) => round(bottom - ((v - min) / span) * (bottom - top));
  const count = Math.max(...spec.series.map((s) => s.values.length));
  const xsAll = spec.series.flatMap((s) => s.xs ?? []);
  const xMin = xsAll.length ? Math.min(...xsAll) : 0;
  const xSpan = xsAll.length ? Math.max(...xsAll) - xMin || 1 : Math.max(1, count - 1);
  const xAt = (s: ChartSpec["series"][number], i: number) =>
    round(PAD + (((s.xs?.[i] ?? i) - (s.xs ? xMin : 0)) / xSpan) * (WIDTH - 2 * PAD));

  for (let t = 0; t <= 4; t++) {
    const v = min + (span * t) / 4;
    shapes.push({
      kind: "polyline",
      points: [
        [PAD - 4, y(v)],
        [WIDTH - PAD, y(v)],
      ],
      stroke: "#e6e6e6",
      width: 1,
    });
    shapes.push({
      kind: "text",
      x: PAD - 8,
      y: y(v) + 4,
      text: formatTick(v),
      size: 10,
      anchor: "end",
      fill: INK,
    });
  }
  const baseline = y(min <= 0 && max >= 0 ? 0 : min);
  shapes.push({
    kind: "polyline",
    points: [
      [PAD, top],
      [PAD, bottom],
    ],
    stroke: AXIS,
    width: 1,
  });
  shapes.push({
    kind: "polyline",
    points: [
      [PAD, baseline],
      [WIDTH - PAD, baseline],
    ],
    stroke: AXIS,
    width: 1,
  });

  const slot = (WIDTH - 2 * PAD) / count;
  spec.series.forEach((s, si) => {
    if (spec.type === "bar") {
      const bw = (slot * 0.8) / spec.series.length;
      s.values.forEach((v, i) => {
        const x = round(PAD + i * slot + slot * 0.1 + si * bw);
        shapes.push({
          kind: "rect",
          x,
          y: Math.min(y(v), baseline),
          w: round(bw),
          h: round(Math.abs(y(v) - baseline)),
          fill: color(si),
        });
      });
    } else if (spec.type === "line") {
      shapes.push({
        kind: "polyline",
        points: s.values.map((v, i) => [xAt(s, i), y(v)]),
        stroke: color(si),
        width: 2,
      });
    } else {
      s.values.forEach((v, i) =>
        shapes.push({ kind: "circle", cx: xAt(s, i), cy: y(v), r: 4, fill: color(si) }),
      );
    }
  });
  spec.labels.slice(0, count).forEach((label, i) => {
    const x =
      spec.type === "bar"
        ? round(PAD + slot * (i + 0.5))
        : round(PAD + (i / Math.max(1, count - 1)) * (WIDTH - 2 * PAD));
    shapes.push({
      kind: "text",
      x,
      y: bottom + 18,
      text: label,
      size: 10,
      anchor: "middle",
      fill: INK,
    });
  });
  legend(
    spec.series.map((s) => s.name),
    shapes,
  );
}

function pie(spec: ChartSpec, shapes: Shape[]) {
  const values = spec.series[0]!.values.map((v) => Math.max(0, v));
  const total = values.reduce((a, b) => a + b, 0) || 1;
  const cx = WIDTH / 2 - 60;
  const cy = HEIGHT / 2 + 14;
  const r = 140;
  let angle = -Math.PI / 2;
  values.forEach((v, i) => {
    const a = (v / total) * Math.PI * 2;
    if (a > 0)
      shapes.push({ kind: "wedge", cx, cy, r, start: angle, end: angle + a, fill: color(i) });
    angle += a;
  });
  legend(
    values.map((v, i) => `${spec.labels[i] ?? `#${i + 1}`} (${formatTick(v)})`),
    shapes,
  );
}

function formatTick(v: number): string {
  if (v !== 0 && (Math.abs(v) >= 1e6 || Math.abs(v) < 1e-3)) return v.toExponential(1);
  return String(Math.round(v * 100) / 100);
}
