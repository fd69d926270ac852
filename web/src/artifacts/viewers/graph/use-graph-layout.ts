// A graph's node positions. Small graphs are laid out at once, on the main thread (a few
// milliseconds, and nothing to wait for); larger ones in a Web Worker, so opening them never
// freezes the page. Null while the worker runs.
import { useEffect, useState } from "react";
import { layoutGraph, type GraphShape, type Point } from "./layout-graph";
import { LayoutAnswer, positionsOf, requestFor } from "./layout-request";

/** Up to this many nodes, laying out on the main thread stays well under a frame's budget. */
export const MAIN_THREAD_MAX_NODES = 80;

export type GraphLayout =
  | { state: "ready"; positions: Map<string, Point> }
  | { state: "laying-out" }
  | { state: "failed"; message: string };

const inWorker = (graph: GraphShape) =>
  graph.nodes.length > MAIN_THREAD_MAX_NODES && typeof Worker !== "undefined";

export function useGraphLayout(graph: GraphShape): GraphLayout {
  const [layout, setLayout] = useState<{ graph: GraphShape; result: GraphLayout }>(() => ({
    graph,
    result: inWorker(graph)
      ? { state: "laying-out" }
      : { state: "ready", positions: layoutGraph(graph) },
  }));

  useEffect(() => {
    if (!inWorker(graph)) {
      if (layout.graph !== graph)
        setLayout({ graph, result: { state: "ready", positions: layoutGraph(graph) } });
      return;
    }
    const worker = new Worker(new URL("./graph-layout.worker.ts", import.meta.url), {
      type: "module",
    });
    worker.onmessage = (event: MessageEvent<unknown>) => {
      const answer = LayoutAnswer.safeParse(event.data);
      setLayout({
        graph,
        result: !answer.success
          ? { state: "failed", message: "The layout worker answered something unexpected." }
          : answer.data.ok
            ? { state: "ready", positions: positionsOf(answer.data) }
            : { state: "failed", message: answer.data.message },
      });
      worker.terminate();
    };
    worker.onerror = (event) => {
      event.preventDefault();
      setLayout({
        graph,
        result: { state: "failed", message: event.message || "The layout worker did not start." },
      });
    };
    worker.postMessage(requestFor(graph));
    return () => worker.terminate();
    // A new graph is a new layout; the state only records which graph it belongs to.
  }, [graph]);

  return layout.graph === graph ? layout.result : { state: "laying-out" };
}
