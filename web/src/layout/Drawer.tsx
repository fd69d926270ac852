// On a phone the conversation list slides in over the chat: the header's button opens it;
// Escape, a tap beside it or a swipe to the left closes it.
import { type ReactNode, useEffect, useRef } from "react";
import { keepTabWithin } from "../ui/focus-trap";

const SWIPE_CLOSE_PX = 60;

export function Drawer(props: {
  /** Off a phone the list is a plain column and this adds nothing. */
  phone: boolean;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const touchStartX = useRef<number | null>(null);
  const { open, onClose } = props;

  useEffect(() => {
    if (!open || !props.phone) return;
    // Keyboard and screen-reader users land in the list they asked for.
    panel.current?.querySelector<HTMLElement>("button, input, a[href]")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) {
        e.preventDefault();
        onClose();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, onClose, props.phone]);

  if (!props.phone) return props.children;
  return (
    <>
      {open && <div className="drawer-backdrop" aria-hidden="true" onClick={onClose} />}
      <div
        ref={panel}
        id="conversation-drawer"
        className={`drawer ${open ? "open" : ""}`}
        // Closed, the list is off screen: out of the tab order and hidden from screen readers.
        inert={!open}
        // Open, it covers the chat: Tab goes round the list, not to the chat behind it.
        onKeyDown={open ? keepTabWithin : undefined}
        onTouchStart={(e) => (touchStartX.current = e.touches[0]?.clientX ?? null)}
        onTouchEnd={(e) => {
          const start = touchStartX.current;
          const end = e.changedTouches[0]?.clientX;
          touchStartX.current = null;
          if (start !== null && end !== undefined && start - end > SWIPE_CLOSE_PX) onClose();
        }}
      >
        {props.children}
      </div>
    </>
  );
}
