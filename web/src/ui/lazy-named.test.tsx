// @vitest-environment jsdom
// A part of the app whose chunk cannot be downloaded (a deploy removed it, or the network is
// down) says so with Reload, and the rest of the page stays, instead of a blank page.
import { act, Suspense } from "react";
import { expect, it, vi } from "vitest";
import { mountInPage } from "../test-page";
import { lazyNamed } from "./lazy-named";

it("a part whose chunk is gone shows a notice with Reload; the page around it stays", async () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const gone = new TypeError("Failed to fetch dynamically imported module: /assets/Settings-x.js");
  const Settings = lazyNamed(
    () => Promise.reject<Record<"SettingsPanel", () => null>>(gone),
    "SettingsPanel",
  );
  const { host, root } = mountInPage();
  await act(async () =>
    root.render(
      <main>
        <h1>Field notes</h1>
        <Suspense fallback={<p>Loading…</p>}>
          <Settings />
        </Suspense>
      </main>,
    ),
  );
  expect(host.querySelector("h1")?.textContent).toBe("Field notes");
  const alert = host.querySelector('[role="alert"]');
  expect(alert?.textContent).toContain("This part of the app could not be loaded");
  expect(alert?.querySelector("button")?.textContent).toBe("Reload");
  expect(warn).toHaveBeenCalledWith("The app's SettingsPanel could not be loaded:", gone);
  warn.mockRestore();
});

it("a part that loads renders with its props", async () => {
  const Greeting = lazyNamed(
    async () => ({ Greeting: ({ name }: { name: string }) => <p>Hello {name}</p> }),
    "Greeting",
  );
  const { host, root } = mountInPage();
  await act(async () =>
    root.render(
      <Suspense fallback={null}>
        <Greeting name="Ada" />
      </Suspense>,
    ),
  );
  expect(host.textContent).toBe("Hello Ada");
  expect(host.querySelector('[role="alert"]')).toBeNull();
});
