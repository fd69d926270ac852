// The handle between two desktop panes: drag it, or focus it and use the arrow keys. `grows`
// says which way the pane widens: "right" for the list on the left, "left" for the artifact pane.
import type { KeyboardEvent, PointerEvent } from "react";
import { clampWidth, PANE_LIMITS, type PaneName } from "./pane-widths";

const KEY_STEP = 24;

export function PaneResizer(props: {
  pane: PaneName;
  label: string;
  width: number;
  grows: "left" | "right";
  onResize: (width: number) => void;
  onResizeEnd: (width: number) => void;
}) {
  const sign = props.grows === "right" ? 1 : -1;

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const handle = e.currentTarget;
    const startX = e.clientX;
    const startWidth = props.width;
    let width = startWidth;
    handle.setPointerCapture(e.pointerId);
    const move = (ev: globalThis.PointerEvent) => {
      width = clampWidth(props.pane, startWidth + sign * (ev.clientX - startX));
      props.onResize(width);
    };
    const up = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
      handle.removeEventListener("pointercancel", up);
      props.onResizeEnd(width);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
    handle.addEventListener("pointercancel", up);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const delta = { ArrowRight: KEY_STEP, ArrowLeft: -KEY_STEP }[e.key];
    if (delta === undefined) return;
    e.preventDefault();
    const width = clampWidth(props.pane, props.width + sign * delta);
    props.onResize(width);
    props.onResizeEnd(width);
  };

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={props.label}
      aria-valuenow={props.width}
      aria-valuemin={PANE_LIMITS[props.pane].min}
      aria-valuemax={PANE_LIMITS[props.pane].max}
      tabIndex={0}
      className="pane-resizer"
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}
