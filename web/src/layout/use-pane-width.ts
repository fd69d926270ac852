// One resizable pane's width: live while dragging, saved when the drag ends.
import { useMemo, useState } from "react";
import { browserStore } from "../browser-store";
import { type PaneName, readWidth, saveWidth } from "./pane-widths";

export function usePaneWidth(pane: PaneName) {
  const [width, setWidth] = useState(() => readWidth(pane, browserStore()));
  const handlers = useMemo(
    () => ({
      onResize: setWidth,
      onResizeEnd: (w: number) => saveWidth(pane, w, browserStore()),
    }),
    [pane],
  );
  return { width, handlers: { width, ...handlers } };
}
