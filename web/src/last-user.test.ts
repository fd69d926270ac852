import { describe, expect, it } from "vitest";
import { forgetUser, lastUser, rememberUser } from "./last-user";
import { memoryStorage, refusingStorage } from "./test-storage";

describe("the last user", () => {
  it("is remembered after a confirmed session and forgotten after a sign-out", () => {
    const store = memoryStorage();
    expect(lastUser(store)).toBeNull();
    rememberUser(store, { id: "u1", name: "Ada" });
    expect(lastUser(store)).toEqual({ id: "u1", name: "Ada" });
    forgetUser(store);
    expect(lastUser(store)).toBeNull();
  });

  it("keeps only the id and the name", () => {
    const store = memoryStorage();
    rememberUser(store, { id: "u1", name: "Ada", token: "secret" } as never);
    expect([...store.items.values()].join()).not.toContain("secret");
  });

  it("is nobody when what is stored is not a user, or the browser refuses storage", () => {
    const store = memoryStorage();
    store.items.set("thinking-chat:last-user", "{not json");
    expect(lastUser(store)).toBeNull();
    store.items.set("thinking-chat:last-user", JSON.stringify({ id: "", name: "x" }));
    expect(lastUser(store)).toBeNull();
    expect(lastUser(refusingStorage)).toBeNull();
    expect(() => rememberUser(refusingStorage, { id: "u1", name: "Ada" })).not.toThrow();
    expect(() => forgetUser(refusingStorage)).not.toThrow();
    expect(lastUser(null)).toBeNull();
  });
});
