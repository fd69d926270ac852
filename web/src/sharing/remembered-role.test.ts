import { describe, expect, it } from "vitest";
import { forgetRoles, rememberedRole, rememberRole } from "./remembered-role";
import { memoryStorage, refusingStorage } from "../test-storage";

describe("the role remembered per user and conversation", () => {
  it("is the last one told, for that user only, until they sign out", () => {
    const store = memoryStorage();
    rememberRole(store, "u1", "c1", "participant");
    rememberRole(store, "u1", "c1", "viewer");
    rememberRole(store, "u1", "c2", "owner");
    expect(rememberedRole(store, "u1", "c1")).toBe("viewer");
    expect(rememberedRole(store, "u1", "c2")).toBe("owner");
    expect(rememberedRole(store, "u2", "c1")).toBeNull();
    forgetRoles(store, "u1");
    expect(rememberedRole(store, "u1", "c2")).toBeNull();
  });

  it("a stored value that is not one (hand-edited, an unknown role) is no role: the box waits", () => {
    const store = memoryStorage();
    rememberRole(store, "u1", "c1", "participant");
    const [key] = [...store.items.keys()];
    for (const bad of ['[["c1","admin"]]', '{"c1":"owner"}', "not json", '[["c1"]]']) {
      store.setItem(key!, bad);
      expect(rememberedRole(store, "u1", "c1")).toBeNull();
    }
    // And telling it again mends it.
    rememberRole(store, "u1", "c1", "owner");
    expect(rememberedRole(store, "u1", "c1")).toBe("owner");
  });

  it("keeps the 200 conversations told most recently", () => {
    const store = memoryStorage();
    for (let i = 0; i <= 200; i++) rememberRole(store, "u1", `c${i}`, "participant");
    expect(rememberedRole(store, "u1", "c0")).toBeNull();
    expect(rememberedRole(store, "u1", "c1")).toBe("participant");
    expect(rememberedRole(store, "u1", "c200")).toBe("participant");
  });

  it("refused storage remembers nothing, and does not throw", () => {
    const store = refusingStorage;
    rememberRole(store, "u1", "c1", "owner");
    expect(rememberedRole(store, "u1", "c1")).toBeNull();
    forgetRoles(store, "u1");
  });
});
