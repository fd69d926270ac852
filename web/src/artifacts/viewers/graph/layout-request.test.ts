import { describe, expect, it } from "vitest";
import { answerLayoutRequest, positionsOf, requestFor } from "./layout-request";

describe("the layout worker's job", () => {
  it("returns a finite position for every node of a 500-node graph", () => {
    const nodes = Array.from({ length: 500 }, (_, i) => ({ id: `n${i}`, label: `N${i}` }));
    const links = nodes.slice(1).map((n, i) => ({ source: n.id, target: `n${Math.floor(i / 3)}` }));
    const answer = answerLayoutRequest(requestFor({ nodes, links }));
    if (!answer.ok) throw new Error(answer.message);
    const positions = positionsOf(answer);
    expect(positions.size).toBe(500);
    for (const p of positions.values()) expect(Number.isFinite(p.x + p.y)).toBe(true);
  });

  it("says so when what it was sent is not a graph", () => {
    expect(answerLayoutRequest({ nodes: "many" })).toEqual({
      ok: false,
      message: "The graph sent for layout was malformed.",
    });
  });
});
