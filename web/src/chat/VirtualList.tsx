// A scrolling list that keeps only what is on screen (and a margin either side) in the DOM, so a
// conversation of ten thousand messages opens and scrolls as fast as one of ten. Items are
// measured as they render; the rest take the average height measured so far. The list follows
// its end while the reader is there (streaming text stays in view) and otherwise keeps the item
// the reader is looking at where it is, whatever is measured or added above it.
import {
  type ReactNode,
  type Ref,
  useCallback,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { averageHeight, indexAt, layoutOf, type Range, rangeFor } from "./window-range";

export interface VirtualListHandle {
  /** Scrolls to the end and follows it from then on. */
  scrollToEnd(): void;
}

/** Within this many pixels of the end counts as at the end (the list then follows new content). */
const AT_END_SLACK = 40;
/** Pixels rendered beyond either edge of the viewport, so a fast scroll does not show blanks. */
const OVERSCAN = 800;
/** Where the viewport's height is not known (no layout, as in tests under jsdom). */
const FALLBACK_VIEWPORT = 1000;

export function VirtualList<T>(props: {
  items: readonly T[];
  keyOf: (item: T) => string;
  render: (item: T) => ReactNode;
  /** A first guess at an item's height, in pixels, until one has been measured. */
  estimate: number;
  className?: string;
  testId?: string;
  /** Shown inside the list when it has no items. */
  empty?: ReactNode;
  handle?: Ref<VirtualListHandle>;
}) {
  const { items, keyOf, estimate } = props;
  const container = useRef<HTMLDivElement>(null);
  const measured = useRef(new Map<string, number>());
  const [measuredVersion, setMeasuredVersion] = useState(0);
  const [range, setRange] = useState<Range>({ start: 0, end: 0 });
  const atEnd = useRef(true);
  /** The item at the top of the viewport and how far into it the viewport starts. */
  const anchor = useRef<{ key: string; into: number } | null>(null);

  const keys = useMemo(() => items.map(keyOf), [items, keyOf]);
  const layout = useMemo(
    () => layoutOf(keys, measured.current, averageHeight(measured.current, estimate)),
    // measuredVersion stands for the contents of `measured`, which is mutated in place.
    [keys, measuredVersion, estimate],
  );

  const observer = useMemo(
    () =>
      typeof ResizeObserver === "undefined"
        ? null
        : new ResizeObserver((entries) => {
            let changed = false;
            for (const entry of entries) {
              const key = (entry.target as HTMLElement).dataset["key"];
              const height = entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height;
              if (key === undefined || measured.current.get(key) === height) continue;
              measured.current.set(key, height);
              changed = true;
            }
            if (changed) setMeasuredVersion((v) => v + 1);
          }),
    [],
  );
  const observe = useCallback(
    (el: HTMLDivElement | null) => {
      if (!el || !observer) return;
      observer.observe(el);
      return () => observer.unobserve(el);
    },
    [observer],
  );

  const updateRange = useCallback(
    (el: HTMLDivElement) => {
      const height = el.clientHeight || FALLBACK_VIEWPORT;
      // At the end, the viewport shows the end, whether or not the browser has scrolled there yet.
      const top = atEnd.current
        ? Math.max(0, layout.offsets[layout.offsets.length - 1]! - height)
        : el.scrollTop;
      const next = rangeFor(layout, top, height, OVERSCAN);
      setRange((cur) => (cur.start === next.start && cur.end === next.end ? cur : next));
    },
    [layout],
  );

  // After every change of items or heights: stay at the end if the reader was there, otherwise
  // put the anchored item back where it was; then render what the viewport now shows.
  useLayoutEffect(() => {
    const el = container.current;
    if (!el) return;
    if (atEnd.current) {
      el.scrollTop = el.scrollHeight;
    } else if (anchor.current) {
      const index = keys.indexOf(anchor.current.key);
      if (index >= 0) {
        const top = layout.offsets[index]! + anchor.current.into;
        if (Math.abs(el.scrollTop - top) > 0.5) el.scrollTop = top;
      }
    }
    updateRange(el);
  });

  useImperativeHandle(
    props.handle,
    () => ({
      scrollToEnd() {
        atEnd.current = true;
        const el = container.current;
        if (!el) return;
        el.scrollTop = el.scrollHeight;
        updateRange(el);
      },
    }),
    [updateRange],
  );

  const onScroll = () => {
    const el = container.current;
    if (!el) return;
    // The page's own heights: the layout's estimates can run past the real end before the
    // items on screen are measured. (Without layout, as under jsdom, the layout's.)
    const height = el.scrollHeight || layout.offsets[keys.length]!;
    atEnd.current = height - el.scrollTop - (el.clientHeight || FALLBACK_VIEWPORT) < AT_END_SLACK;
    const index = keys.length ? indexAt(layout, el.scrollTop) : -1;
    anchor.current =
      index >= 0 ? { key: keys[index]!, into: el.scrollTop - layout.offsets[index]! } : null;
    updateRange(el);
  };

  const total = layout.offsets[keys.length]!;
  const start = Math.min(range.start, keys.length);
  const end = Math.min(range.end, keys.length);
  return (
    <div
      className={props.className}
      data-testid={props.testId}
      data-count={items.length}
      ref={container}
      onScroll={onScroll}
      style={{ overflowAnchor: "none" }}
    >
      {items.length === 0 && props.empty}
      <div style={{ height: layout.offsets[start] }} aria-hidden="true" />
      {items.slice(start, end).map((item, i) => (
        <div key={keys[start + i]} data-key={keys[start + i]} ref={observe} className="window-item">
          {props.render(item)}
        </div>
      ))}
      <div style={{ height: total - layout.offsets[end]! }} aria-hidden="true" />
    </div>
  );
}
