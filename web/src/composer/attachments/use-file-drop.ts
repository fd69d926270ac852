// Files dropped on the composer, or anywhere on the conversation around it, are attached. While
// files are dragged over, the composer shows where they go (the returned `dragging`).
import { type RefObject, useEffect, useState } from "react";
import { carriesFiles, droppedFiles } from "./dropped-files";

/** Listens on `zone` (the conversation), else on `own` (the composer itself). */
export function useFileDrop(
  zone: RefObject<HTMLElement | null> | undefined,
  own: RefObject<HTMLElement | null>,
  add: (files: readonly File[]) => void,
): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const target = zone?.current ?? own.current;
    if (!target) return;
    const over = (e: DragEvent) => {
      if (!carriesFiles(e.dataTransfer)) return;
      e.preventDefault();
      e.dataTransfer!.dropEffect = "copy";
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (!target.contains(e.relatedTarget as Node | null)) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      setDragging(false);
      const dropped = droppedFiles(e.dataTransfer);
      if (dropped.length === 0) return;
      e.preventDefault();
      add(dropped);
    };
    target.addEventListener("dragover", over);
    target.addEventListener("dragleave", leave);
    target.addEventListener("drop", drop);
    return () => {
      target.removeEventListener("dragover", over);
      target.removeEventListener("dragleave", leave);
      target.removeEventListener("drop", drop);
    };
  }, [zone, own, add]);
  return dragging;
}
