// @vitest-environment jsdom
// The windowed message list under jsdom (no layout: every item takes the estimated height and
// the viewport the fallback height). Real scrolling and measuring are in tests/e2e.
import { act } from "react";
import { expect, it } from "vitest";
import { mountInPage } from "../test-page";
import { VirtualList, type VirtualListHandle } from "./VirtualList";

const messages = (n: number) => Array.from({ length: n }, (_, i) => `message ${i}`);

function renderList(items: string[], handle?: { current: VirtualListHandle | null }) {
  const { host, root } = mountInPage();
  const draw = (list: string[]) =>
    act(() =>
      root.render(
        <VirtualList
          items={list}
          keyOf={(m) => m}
          render={(m) => <article>{m}</article>}
          estimate={120}
          testId="messages"
          {...(handle && { handle })}
        />,
      ),
    );
  draw(items);
  const list = host.querySelector<HTMLElement>('[data-testid="messages"]')!;
  const shown = () => [...list.querySelectorAll("article")].map((a) => a.textContent);
  const scrollTo = (top: number) =>
    act(() => {
      list.scrollTop = top;
      list.dispatchEvent(new Event("scroll"));
    });
  return { list, shown, scrollTo, draw };
}

it("with 10,000 messages holds only a window of them in the DOM, the latest first", () => {
  const { shown } = renderList(messages(10_000));
  expect(shown().length).toBeGreaterThan(5);
  expect(shown().length).toBeLessThan(50);
  expect(shown().at(-1)).toBe("message 9999");
  expect(shown()).not.toContain("message 0");
});

it("scrolling to the top shows the first messages, and a spacer keeps the full height", () => {
  const { list, shown, scrollTo } = renderList(messages(10_000));
  scrollTo(0);
  expect(shown()[0]).toBe("message 0");
  expect(shown()).not.toContain("message 9999");
  const spacers = [...list.children].filter((c) => c.getAttribute("aria-hidden") === "true");
  const height = spacers.reduce((h, s) => h + parseFloat((s as HTMLElement).style.height), 0);
  expect(height + shown().length * 120).toBe(10_000 * 120);
});

it("a message added while the reader is up the list does not move them; jump to latest does", () => {
  const handle: { current: VirtualListHandle | null } = { current: null };
  const { shown, scrollTo, draw } = renderList(messages(10_000), handle);
  scrollTo(120 * 5_000);
  expect(shown()).toContain("message 5000");
  draw(messages(10_001));
  expect(shown()).toContain("message 5000");
  expect(shown()).not.toContain("message 10000");
  act(() => handle.current!.scrollToEnd());
  expect(shown().at(-1)).toBe("message 10000");
});

it("follows new messages while the reader is at the end", () => {
  const { shown, draw } = renderList(messages(3));
  expect(shown()).toEqual(["message 0", "message 1", "message 2"]);
  draw(messages(2_000));
  expect(shown().at(-1)).toBe("message 1999");
});
