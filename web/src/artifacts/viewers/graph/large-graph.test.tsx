// @vitest-environment jsdom
// A large graph opens without one long freeze: it is drawn a slice per frame, and zoomed out to
// fit it leaves node labels and arrowheads out (specks at that size), while an export has them.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, expect, it, vi } from "vitest";
import { mountInPage } from "../../../test-page";
import { artifact } from "../../test-artifact";
import { exportableSvg } from "./export-graph";
import { KnowledgeGraphViewer } from "./KnowledgeGraphViewer";
import { NODES_PER_FRAME } from "./use-progressive-draw";

let root: Root;
let host: HTMLElement;
afterEach(() => {
  vi.unstubAllGlobals();
});

const NODES = 200;
// Each node links to the next and to one other: a graph too wide to read its labels at fit.
const graph = {
  nodes: Array.from({ length: NODES }, (_, i) => ({ id: `n${i}`, label: `Node ${i}` })),
  links: Array.from({ length: NODES - 1 }, (_, i) => [
    { source: `n${i}`, target: `n${i + 1}`, type: "next" },
    { source: `n${i}`, target: `n${(i * 7 + 3) % NODES}`, type: "see" },
  ])
    .flat()
    .filter((l) => l.source !== l.target),
};

function show() {
  ({ host, root } = mountInPage());
  const content = JSON.stringify(graph);
  act(() =>
    root.render(
      <KnowledgeGraphViewer
        artifact={artifact({ type: "application/vnd.knowledge-graph", title: "Big", content })}
        onSaved={() => undefined}
      />,
    ),
  );
}

const count = (selector: string) => host.querySelectorAll(selector).length;
const zoomPercent = () =>
  Number(
    [...host.querySelectorAll(".artifact-item-meta")]
      .map((e) => e.textContent ?? "")
      .find((t) => t.endsWith("%"))
      ?.slice(0, -1),
  );

it(`draws a ${NODES}-node graph a slice per frame until every node is there`, async () => {
  // Frames run one at a time, by hand.
  const frames: FrameRequestCallback[] = [];
  vi.stubGlobal("requestAnimationFrame", (f: FrameRequestCallback) => frames.push(f));
  vi.stubGlobal("cancelAnimationFrame", () => undefined);
  const nextFrame = () => act(() => frames.shift()?.(performance.now()));
  show();
  // The first frame mounts the viewer and draws no node; each frame after adds a slice.
  expect(count('[data-testid="graph-node"]')).toBe(0);
  nextFrame();
  const first = count('[data-testid="graph-node"]');
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(NODES_PER_FRAME);
  nextFrame();
  expect(count('[data-testid="graph-node"]')).toBeGreaterThan(first);
  while (frames.length > 0) nextFrame();
  expect(count('[data-testid="graph-node"]')).toBe(NODES);
  expect(count("line.kg-link")).toBe(graph.links.length);
}, 30_000);

it("leaves labels and arrowheads out while zoomed out, shows them zoomed in, and exports them", async () => {
  show();
  await vi.waitFor(() => expect(count('[data-testid="graph-node"]')).toBe(NODES), {
    timeout: 10_000,
  });
  const zoomOut = host.querySelector('button[aria-label="Zoom out"]') as HTMLButtonElement;
  while (zoomPercent() >= 45) act(() => zoomOut.click());
  expect(count(".kg-label")).toBe(0);
  expect(host.querySelector("line.kg-link[marker-end]")).toBeNull();

  const svg = host.querySelector("svg.kg-svg") as SVGSVGElement;
  const file = exportableSvg(
    svg,
    graph.nodes.map((n, i) => ({ x: i, y: i, r: 6, text: n.label })),
  );
  expect(file.text.match(/class="kg-label"/g)).toHaveLength(NODES);
  expect(file.text).toContain(">Node 199</text>");

  const zoomIn = host.querySelector('button[aria-label="Zoom in"]') as HTMLButtonElement;
  while (zoomPercent() < 45) act(() => zoomIn.click());
  expect(count(".kg-label")).toBe(NODES);
  expect(host.querySelector("line.kg-link[marker-end]")).not.toBeNull();
}, 30_000);
