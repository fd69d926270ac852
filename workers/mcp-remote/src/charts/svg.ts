// Writes a laid-out chart as SVG. Every string is escaped, so the picture holds none of the
// caller's markup.
import type { ChartLayout, Shape } from "./layout";

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
const n = (x: number) => Number(x.toFixed(2));

function shape(s: Shape): string {
  switch (s.kind) {
    case "rect":
      return `<rect x="${n(s.x)}" y="${n(s.y)}" width="${n(s.w)}" height="${n(s.h)}" fill="${s.fill}"/>`;
    case "polyline":
      return `<polyline fill="none" stroke="${s.stroke}" stroke-width="${s.width}" points="${s.points.map(([x, y]) => `${n(x)},${n(y)}`).join(" ")}"/>`;
    case "circle":
      return `<circle cx="${n(s.cx)}" cy="${n(s.cy)}" r="${s.r}" fill="${s.fill}"/>`;
    case "wedge": {
      const [x1, y1] = [s.cx + s.r * Math.cos(s.start), s.cy + s.r * Math.sin(s.start)];
      const [x2, y2] = [s.cx + s.r * Math.cos(s.end), s.cy + s.r * Math.sin(s.end)];
      if (s.end - s.start >= Math.PI * 2 - 1e-9)
        return `<circle cx="${n(s.cx)}" cy="${n(s.cy)}" r="${s.r}" fill="${s.fill}"/>`;
      const large = s.end - s.start > Math.PI ? 1 : 0;
      return `<path d="M${n(s.cx)},${n(s.cy)} L${n(x1)},${n(y1)} A${s.r},${s.r} 0 ${large} 1 ${n(x2)},${n(y2)} Z" fill="${s.fill}"/>`;
    }
    case "text":
      return `<text x="${n(s.x)}" y="${n(s.y)}" text-anchor="${s.anchor}" font-size="${s.size}" font-family="sans-serif" fill="${s.fill}">${esc(s.text)}</text>`;
  }
}

export function toSvg(layout: ChartLayout): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}"><rect width="100%" height="100%" fill="${layout.background}"/>${layout.shapes.map(shape).join("")}</svg>`;
}
