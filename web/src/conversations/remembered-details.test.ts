import { describe, expect, it } from "vitest";
import { memoryStorage, refusingStorage } from "../test-storage";
import {
  forgetDetails,
  rememberConversation,
  rememberedConversation,
  rememberedList,
  rememberedProviders,
  rememberedShared,
  rememberList,
  rememberProviders,
  rememberShared,
} from "./remembered-details";

const trip = {
  id: "c1",
  title: "Trip plans",
  provider: "anthropic",
  model: "claude-haiku-4-5",
  mode: "normal" as const,
  settings: {},
  createdAt: 1,
  updatedAt: 1,
};
const anthropic = { id: "anthropic", configured: true, defaultModel: "m", models: ["m"] };

describe("the details remembered for a reload offline", () => {
  it("are the last told, per user, until they sign out", () => {
    const store = memoryStorage();
    rememberConversation(store, "u1", trip);
    rememberConversation(store, "u1", { ...trip, title: "Trip plans, renamed" });
    rememberProviders(store, "u1", [anthropic]);
    rememberList(store, "u1", [trip]);
    expect(rememberedList(store, "u1")).toEqual([trip]);
    const shared = {
      conversation: { ...trip, id: "c9" },
      role: "viewer" as const,
      owner: { id: "u3", name: "Cy" },
    };
    rememberShared(store, "u1", [shared]);
    expect(rememberedShared(store, "u1")).toEqual([shared]);
    expect(rememberedConversation(store, "u1", "c9")).toEqual(shared.conversation);
    expect(rememberedConversation(store, "u1", "c1")?.title).toBe("Trip plans, renamed");
    expect(rememberedConversation(store, "u2", "c1")).toBeNull();
    expect(rememberedProviders(store, "u1")).toEqual([anthropic]);
    forgetDetails(store, "u1");
    expect(rememberedConversation(store, "u1", "c1")).toBeNull();
    expect(rememberedProviders(store, "u1")).toEqual([]);
    expect(rememberedList(store, "u1")).toEqual([]);
    expect(rememberedShared(store, "u1")).toEqual([]);
  });

  it("a conversation never opened here has the details of its row in the list", () => {
    const store = memoryStorage();
    rememberList(store, "u1", [{ ...trip, id: "c2", title: "Listed only", role: "owner" }]);
    expect(rememberedConversation(store, "u1", "c2")).toEqual({
      ...trip,
      id: "c2",
      title: "Listed only",
    });
    expect(rememberedConversation(store, "u1", "c3")).toBeNull();
  });

  it("a stored value that is not one (hand-edited, an old format) is nothing, and telling again mends it", () => {
    const store = memoryStorage();
    rememberConversation(store, "u1", trip);
    const [key] = [...store.items.keys()];
    for (const bad of ['[{"id":"c1"}]', '{"c1":{}}', "not json"]) {
      store.setItem(key!, bad);
      expect(rememberedConversation(store, "u1", "c1")).toBeNull();
    }
    rememberConversation(store, "u1", trip);
    expect(rememberedConversation(store, "u1", "c1")).toEqual(trip);
  });

  it("refused storage keeps nothing and throws nothing", () => {
    const store = refusingStorage;
    rememberConversation(store, "u1", trip);
    expect(rememberedConversation(store, "u1", "c1")).toBeNull();
    expect(() => forgetDetails(store, "u1")).not.toThrow();
  });
});
