// Files dropped while the box still waits (the user's role is loading): a file uploads as it is
// added, and a viewer's upload would be refused, so they are held, not dropped on the floor, and
// attached once the box opens. Should it not open (a viewer), the viewer's notice says why.
import { useCallback, useEffect, useState } from "react";

/**
 * What takes dropped files now (`add` once the box is open, else a hold), and how many are held.
 */
export function useHeldDrops(
  waiting: boolean,
  add: (files: readonly File[]) => void,
): { take: (files: readonly File[]) => void; held: number } {
  const [held, setHeld] = useState<readonly File[]>([]);
  const hold = useCallback((files: readonly File[]) => setHeld((h) => [...h, ...files]), []);
  useEffect(() => {
    if (waiting || held.length === 0) return;
    setHeld([]);
    add(held);
  }, [waiting, held, add]);
  return { take: waiting ? hold : add, held: held.length };
}

/** The hint's line for files held while the box waits. */
export const heldDropsNote = (held: number): string =>
  `${held === 1 ? "The file you dropped waits" : `The ${held} files you dropped wait`}: ${held === 1 ? "it is" : "they are"} attached once the box opens.`;
