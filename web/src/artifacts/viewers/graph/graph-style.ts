// The graph's SVG styles, written once: with CSS variables in the page (so light and dark
// follow the pane), with resolved colours in an exported file (which has no page around it).
export interface GraphColours {
  fg: string;
  muted: string;
  bg: string;
  accent: string;
}

export const PAGE_COLOURS: GraphColours = {
  fg: "var(--fg)",
  muted: "var(--muted)",
  bg: "var(--panel)",
  accent: "var(--accent)",
};

export function graphStyle(c: GraphColours): string {
  return [
    `.kg-link{stroke:${c.muted};stroke-opacity:.55;stroke-width:1.2}`,
    `.kg-arrow{fill:${c.muted};fill-opacity:.8}`,
    `.kg-link-label{fill:${c.muted};font:9px system-ui,sans-serif;text-anchor:middle;stroke:${c.bg};stroke-width:3px;paint-order:stroke}`,
    `.kg-node circle{stroke:${c.bg};stroke-width:1.5}`,
    `.kg-label text{fill:${c.fg};font:11px system-ui,sans-serif;stroke:${c.bg};stroke-width:3px;paint-order:stroke;pointer-events:none}`,
    `.kg-node.selected circle{stroke:${c.accent};stroke-width:3}`,
    `.kg-node.neighbour circle{stroke:${c.accent};stroke-width:1.5}`,
  ].join("\n");
}

/** A node's or link's label as drawn: long ones cut short. */
export const shortLabel = (s: string) => (s.length > 28 ? `${s.slice(0, 27)}…` : s);
