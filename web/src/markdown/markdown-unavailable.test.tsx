// @vitest-environment jsdom
// The markdown renderer's chunk cannot be downloaded (a deploy removed it, or offline): answers
// stay readable as their plain text instead of the page going blank.
import { act } from "react";
import { expect, it, vi } from "vitest";
import { mountInPage } from "../test-page";
import { Markdown } from "./Markdown";

vi.mock("./MarkdownRenderer", () => {
  throw new TypeError("Failed to fetch dynamically imported module: /assets/MarkdownRenderer.js");
});

it("shows the answer's text as it is when the renderer's chunk cannot be loaded", async () => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
  const { host, root } = mountInPage();
  await act(async () => root.render(<Markdown text={"**Bold** and `code`"} />));
  await act(async () => {});
  expect(host.textContent).toBe("**Bold** and `code`");
  expect(host.querySelector(".markdown.text")).not.toBeNull();
});
