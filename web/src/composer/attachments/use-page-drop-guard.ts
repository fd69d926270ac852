// A file dropped beside the composer would make the browser leave the app to show the file; on
// this page a stray drop does nothing instead (the composer takes the drops meant for it).
import { useEffect } from "react";
import { carriesFiles } from "./dropped-files";

export function usePageDropGuard(): void {
  useEffect(() => {
    const guard = (e: DragEvent) => {
      if (carriesFiles(e.dataTransfer)) e.preventDefault();
    };
    window.addEventListener("dragover", guard);
    window.addEventListener("drop", guard);
    return () => {
      window.removeEventListener("dragover", guard);
      window.removeEventListener("drop", guard);
    };
  }, []);
}
