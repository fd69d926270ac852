// The graph as a file: the SVG on screen, re-framed to the whole graph, with its colours
// resolved (no CSS variables, no outside fonts), and as a PNG drawn from that SVG on a canvas.
import { boundsOf, type Point } from "./layout-graph";
import { graphStyle, shortLabel } from "./graph-style";

const SVG_NS = "http://www.w3.org/2000/svg";

/** A node's label where the file shows it (to the right of its circle). */
export interface ExportLabel extends Point {
  r: number;
  text: string;
}

const PAD = 40;
const MAX_PNG_SIDE = 4096;

export function exportableSvg(
  svg: SVGSVGElement,
  labels: readonly ExportLabel[],
): { text: string; width: number; height: number } {
  const b = boundsOf(labels);
  const width = Math.ceil(b.width + 2 * PAD + 160); // room for labels to the right
  const height = Math.ceil(b.height + 2 * PAD);
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("viewBox", `${b.x - PAD} ${b.y - PAD} ${width} ${height}`);
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  clone.removeAttribute("class");
  clone.removeAttribute("style");
  clone.querySelector(".kg-viewport")?.removeAttribute("transform");
  clone.querySelector(".kg-background")?.remove();
  // Zoomed out, the page leaves node labels out; the file always has them.
  const labelGroup = clone.querySelector(".kg-labels");
  if (labelGroup && !labelGroup.hasChildNodes())
    for (const l of labels) labelGroup.appendChild(labelOf(l));

  const css = getComputedStyle(svg);
  const read = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const colours = {
    fg: read("--fg", "#1d1d1f"),
    muted: read("--muted", "#6b6b70"),
    bg: read("--panel", "#ffffff"),
    accent: read("--accent", "#3857d8"),
  };
  const style = clone.querySelector("style");
  if (style) style.textContent = graphStyle(colours);
  const background = document.createElementNS(SVG_NS, "rect");
  background.setAttribute("x", String(b.x - PAD));
  background.setAttribute("y", String(b.y - PAD));
  background.setAttribute("width", String(width));
  background.setAttribute("height", String(height));
  background.setAttribute("fill", colours.bg);
  clone.insertBefore(background, clone.querySelector(".kg-viewport"));
  return { text: new XMLSerializer().serializeToString(clone), width, height };
}

function labelOf(l: ExportLabel): SVGGElement {
  const g = document.createElementNS(SVG_NS, "g");
  g.setAttribute("class", "kg-label");
  g.setAttribute(
    "transform",
    `translate(${Math.round(l.x * 10) / 10},${Math.round(l.y * 10) / 10})`,
  );
  const text = document.createElementNS(SVG_NS, "text");
  text.setAttribute("x", String(l.r + 4));
  text.setAttribute("dy", "0.35em");
  text.textContent = shortLabel(l.text);
  g.appendChild(text);
  return g;
}

export async function svgToPng(svgText: string, width: number, height: number): Promise<Blob> {
  const scale = Math.max(0.1, Math.min(2, MAX_PNG_SIDE / Math.max(width, height)));
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("This browser cannot draw on a canvas.");
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error("The PNG could not be made."))),
        "image/png",
      ),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
