import { describe, expect, it } from "vitest";
import { rememberUser } from "./last-user";
import { sessionStart } from "./session-start";
import { memoryStorage, refusingStorage } from "./test-storage";

describe("how a page load learns who is signed in", () => {
  it("signs in with a start link's token, whoever was here before", () => {
    const store = memoryStorage();
    rememberUser(store, { id: "u1", name: "Ada" });
    expect(sessionStart("#token=tc_abc", store)).toEqual({ kind: "start-link", token: "tc_abc" });
  });

  it("checks the session of the user this browser remembers", () => {
    const store = memoryStorage();
    rememberUser(store, { id: "u1", name: "Ada" });
    expect(sessionStart("", store)).toEqual({ kind: "check", user: { id: "u1", name: "Ada" } });
  });

  it("shows the sign-in without asking when nobody is remembered (no 401 in the console)", () => {
    expect(sessionStart("", memoryStorage())).toEqual({ kind: "signed-out" });
  });

  it("asks when the storage cannot be read: nothing says who is signed in", () => {
    expect(sessionStart("", null)).toEqual({ kind: "check", user: null });
    expect(sessionStart("", refusingStorage)).toEqual({ kind: "check", user: null });
  });
});
