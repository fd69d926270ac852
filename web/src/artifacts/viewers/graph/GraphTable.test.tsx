// @vitest-environment jsdom
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { mountInPage } from "../../../test-page";
import { artifact } from "../../test-artifact";
import { KnowledgeGraphViewer } from "./KnowledgeGraphViewer";

let root: Root;
let host: HTMLElement;

const graph = {
  nodes: [
    { id: "brca1", label: "BRCA1", type: "Gene", properties: { chromosome: "17q21" } },
    { id: "bc", label: "Breast cancer", type: "Disease" },
    { id: "olaparib", label: "Olaparib", type: "Drug" },
  ],
  links: [
    { source: "brca1", target: "bc", type: "associated_with" },
    { source: "olaparib", target: "bc", type: "treats" },
  ],
};

function show() {
  ({ host, root } = mountInPage());
  const content = JSON.stringify(graph);
  act(() =>
    root.render(
      <KnowledgeGraphViewer
        artifact={artifact({ type: "application/vnd.knowledge-graph", title: "Genes", content })}
        onSaved={() => undefined}
      />,
    ),
  );
}

const button = (name: string) => {
  const b = [...host.querySelectorAll("button")].find((x) => x.textContent?.trim() === name);
  if (!b) throw new Error(`no button "${name}"`);
  return b;
};
const click = (el: HTMLElement) => act(() => el.click());
const rowsOf = (caption: string) => {
  const table = [...host.querySelectorAll("table")].find((t) =>
    t.caption?.textContent?.startsWith(caption),
  );
  if (!table) throw new Error(`no table "${caption}"`);
  return [...table.tBodies[0]!.rows].map((r) =>
    [...r.cells].map((c) => c.textContent?.trim() ?? ""),
  );
};

describe("the knowledge graph's table view", () => {
  it("shows the nodes and links as tables, from a keyboard-reachable toggle", () => {
    show();
    const toggle = button("Table view");
    // A native button in the tab order: Tab reaches it and Enter or Space presses it.
    expect(toggle.tabIndex).toBe(0);
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    expect(host.querySelector("table")).toBeNull();

    click(toggle);
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    expect(host.querySelector("svg.kg-svg")).toBeNull();
    expect(rowsOf("Nodes (3)")).toEqual([
      ["BRCA1", "Gene", "1", "chromosome: 17q21"],
      ["Breast cancer", "Disease", "2", ""],
      ["Olaparib", "Drug", "1", ""],
    ]);
    expect(rowsOf("Links (2)")).toEqual([
      ["BRCA1", "associated_with", "Breast cancer"],
      ["Olaparib", "treats", "Breast cancer"],
    ]);
    const region = host.querySelector<HTMLElement>('[role="region"][aria-label="Graph as tables"]');
    expect(region?.tabIndex).toBe(0);

    click(toggle);
    expect(host.querySelector("table")).toBeNull();
    expect(host.querySelector("svg.kg-svg")).not.toBeNull();
  });

  it("opens a node's details from the table and follows the type filter", () => {
    show();
    click(button("Table view"));
    const [olaparib] = [...host.querySelectorAll("tbody th button")].filter(
      (b) => b.textContent === "Olaparib",
    );
    click(olaparib as HTMLElement);
    const details = host.querySelector('[aria-label="Selected node"]');
    expect(details?.querySelector("h3")?.textContent).toBe("Olaparib");
    expect(details?.textContent).toContain("treats");

    const drugFilter = [...host.querySelectorAll(".kg-filter label")].find((l) =>
      l.textContent?.includes("Drug"),
    );
    click(drugFilter!.querySelector("input")!);
    expect(rowsOf("Nodes (2)").map((r) => r[0])).toEqual(["BRCA1", "Breast cancer"]);
    expect(rowsOf("Links (1)")).toEqual([["BRCA1", "associated_with", "Breast cancer"]]);
  });
});
