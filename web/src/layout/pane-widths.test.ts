import { describe, expect, it } from "vitest";
import { memoryStorage } from "../test-storage";
import { clampWidth, PANE_LIMITS, readWidth, saveWidth } from "./pane-widths";

describe("pane widths", () => {
  it("remembers a width the user dragged to", () => {
    const store = memoryStorage();
    saveWidth("sidebar", 333.4, store);
    expect(readWidth("sidebar", store)).toBe(333);
    expect(readWidth("artifacts", store)).toBe(PANE_LIMITS.artifacts.initial);
  });

  it("keeps widths within limits, and ignores a stored value that is not a number", () => {
    expect(clampWidth("sidebar", 20)).toBe(PANE_LIMITS.sidebar.min);
    expect(clampWidth("artifacts", 5000)).toBe(PANE_LIMITS.artifacts.max);
    const store = memoryStorage();
    store.setItem("thinking-chat:pane-width:sidebar", "wide");
    expect(readWidth("sidebar", store)).toBe(PANE_LIMITS.sidebar.initial);
    store.setItem("thinking-chat:pane-width:sidebar", "9000");
    expect(readWidth("sidebar", store)).toBe(PANE_LIMITS.sidebar.max);
    expect(readWidth("sidebar", null)).toBe(PANE_LIMITS.sidebar.initial);
  });
});
