// Typing as others see it: on while the user edits, off after a few quiet seconds or a send.
import { useCallback, useEffect, useRef } from "react";

const QUIET_MS = 4000;

export function useTyping(report: (typing: boolean) => void): (typing: boolean) => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (typing: boolean) => {
      clearTimeout(timer.current);
      report(typing);
      if (typing) timer.current = setTimeout(() => report(false), QUIET_MS);
    },
    [report],
  );
}
