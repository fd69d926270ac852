import { describe, expect, it } from "vitest";
import { forgetUser, lastUser, rememberUser } from "./last-user";

function memoryStore() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

const refusing = {
  getItem: () => {
    throw new Error("SecurityError");
  },
  setItem: () => {
    throw new Error("QuotaExceededError");
  },
  removeItem: () => {
    throw new Error("SecurityError");
  },
};

describe("the last user", () => {
  it("is remembered after a confirmed session and forgotten after a sign-out", () => {
    const store = memoryStore();
    expect(lastUser(store)).toBeNull();
    rememberUser(store, { id: "u1", name: "Ada" });
    expect(lastUser(store)).toEqual({ id: "u1", name: "Ada" });
    forgetUser(store);
    expect(lastUser(store)).toBeNull();
  });

  it("keeps only the id and the name", () => {
    const store = memoryStore();
    rememberUser(store, { id: "u1", name: "Ada", token: "secret" } as never);
    expect([...store.items.values()].join()).not.toContain("secret");
  });

  it("is nobody when what is stored is not a user, or the browser refuses storage", () => {
    const store = memoryStore();
    store.items.set("thinking-chat:last-user", "{not json");
    expect(lastUser(store)).toBeNull();
    store.items.set("thinking-chat:last-user", JSON.stringify({ id: "", name: "x" }));
    expect(lastUser(store)).toBeNull();
    expect(lastUser(refusing)).toBeNull();
    expect(() => rememberUser(refusing, { id: "u1", name: "Ada" })).not.toThrow();
    expect(() => forgetUser(refusing)).not.toThrow();
    expect(lastUser(null)).toBeNull();
  });
});
