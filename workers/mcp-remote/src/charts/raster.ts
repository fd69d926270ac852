// Draws a laid-out chart into RGB pixels, without native code: every shape is filled by testing
// pixel centres at twice the size, then 2×2 blocks are averaged, which smooths the edges.
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from "./font";
import type { ChartLayout, Shape } from "./layout";

// Drawn at twice the size; rasterize's box filter below assumes exactly 2.
const S = 2;

export interface Pixels {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, row by row. */
  rgb: Uint8Array;
}

function parseColor(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : [0, 0, 0];
}

class Canvas {
  readonly rgb: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: string,
  ) {
    this.rgb = new Uint8Array(width * height * 3);
    const [r, g, b] = parseColor(background);
    this.rgb.set([r, g, b]);
    // Doubling copies fill the rest in a few memmoves instead of a loop over every byte.
    for (let filled = 3; filled < this.rgb.length; filled *= 2)
      this.rgb.copyWithin(filled, 0, Math.min(filled, this.rgb.length - filled));
  }

  /** Paints every pixel of the box whose centre passes `inside`. */
  fill(
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    color: string,
    inside: (x: number, y: number) => boolean,
  ) {
    const [r, g, b] = parseColor(color);
    const xa = Math.max(0, Math.floor(x0));
    const xb = Math.min(this.width - 1, Math.ceil(x1));
    const ya = Math.max(0, Math.floor(y0));
    const yb = Math.min(this.height - 1, Math.ceil(y1));
    for (let y = ya; y <= yb; y++) {
      for (let x = xa; x <= xb; x++) {
        if (!inside(x + 0.5, y + 0.5)) continue;
        const i = (y * this.width + x) * 3;
        this.rgb[i] = r;
        this.rgb[i + 1] = g;
        this.rgb[i + 2] = b;
      }
    }
  }
}

function distanceToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number) {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Angle of (x, y) around the centre, moved into [start, start + 2π). */
function angleFrom(start: number, x: number, y: number): number {
  let a = Math.atan2(y, x);
  while (a < start) a += Math.PI * 2;
  while (a >= start + Math.PI * 2) a -= Math.PI * 2;
  return a;
}

function wedgeBox(cx: number, cy: number, r: number, start: number, end: number) {
  const xs = [cx, cx + r * Math.cos(start), cx + r * Math.cos(end)];
  const ys = [cy, cy + r * Math.sin(start), cy + r * Math.sin(end)];
  // An extreme of the circle lies inside the box only if the slice sweeps past it.
  for (let k = -4; k <= 8; k++) {
    const a = (k * Math.PI) / 2;
    if (a >= start && a <= end) {
      xs.push(cx + r * Math.cos(a));
      ys.push(cy + r * Math.sin(a));
    }
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as const;
}

function draw(c: Canvas, s: Shape) {
  switch (s.kind) {
    case "rect": {
      const [x, y, w, h] = [s.x * S, s.y * S, s.w * S, s.h * S];
      c.fill(
        x,
        y,
        x + w,
        y + h,
        s.fill,
        (px, py) => px >= x && px < x + w && py >= y && py < y + h,
      );
      return;
    }
    case "circle": {
      const [cx, cy, r] = [s.cx * S, s.cy * S, s.r * S];
      c.fill(cx - r, cy - r, cx + r, cy + r, s.fill, (px, py) => Math.hypot(px - cx, py - cy) <= r);
      return;
    }
    case "polyline": {
      const half = (s.width * S) / 2;
      for (let i = 0; i + 1 < s.points.length; i++) {
        const [ax, ay] = [s.points[i]![0] * S, s.points[i]![1] * S];
        const [bx, by] = [s.points[i + 1]![0] * S, s.points[i + 1]![1] * S];
        c.fill(
          Math.min(ax, bx) - half,
          Math.min(ay, by) - half,
          Math.max(ax, bx) + half,
          Math.max(ay, by) + half,
          s.stroke,
          (px, py) => distanceToSegment(px, py, ax, ay, bx, by) <= half,
        );
      }
      return;
    }
    case "wedge": {
      const [cx, cy, r] = [s.cx * S, s.cy * S, s.r * S];
      const [x0, y0, x1, y1] = wedgeBox(cx, cy, r, s.start, s.end);
      c.fill(
        x0,
        y0,
        x1,
        y1,
        s.fill,
        (px, py) =>
          Math.hypot(px - cx, py - cy) <= r && angleFrom(s.start, px - cx, py - cy) <= s.end,
      );
      return;
    }
    case "text": {
      const k = Math.max(1, Math.round((s.size * S) / 8));
      const advance = (GLYPH_WIDTH + 1) * k;
      const width = s.text.length * advance - k;
      let x = s.x * S - (s.anchor === "middle" ? width / 2 : s.anchor === "end" ? width : 0);
      const top = s.y * S - GLYPH_HEIGHT * k;
      for (const ch of s.text) {
        const rows = glyphRows(ch);
        const left = Math.round(x);
        c.fill(
          left,
          top,
          left + GLYPH_WIDTH * k - 1,
          top + GLYPH_HEIGHT * k - 1,
          s.fill,
          (px, py) => {
            const col = Math.floor((px - left) / k);
            const row = Math.floor((py - top) / k);
            return ((rows[row] ?? 0) >> (GLYPH_WIDTH - 1 - col)) & 1 ? true : false;
          },
        );
        x += advance;
      }
      return;
    }
  }
}

export function rasterize(layout: ChartLayout): Pixels {
  const big = new Canvas(layout.width * S, layout.height * S, layout.background);
  for (const s of layout.shapes) draw(big, s);
  // 2×2 box filter, unrolled: this loop runs once per output byte.
  const rgb = new Uint8Array(layout.width * layout.height * 3);
  const src = big.rgb;
  const row = big.width * 3;
  let o = 0;
  for (let y = 0; y < layout.height; y++) {
    let i = y * S * row;
    for (let x = 0; x < layout.width; x++, i += 6) {
      for (let ch = 0; ch < 3; ch++, o++)
        rgb[o] =
          (src[i + ch]! + src[i + 3 + ch]! + src[i + row + ch]! + src[i + row + 3 + ch]! + 2) >> 2;
    }
  }
  return { width: layout.width, height: layout.height, rgb };
}
