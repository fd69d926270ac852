// The failure limit of a user's MCP server, over real streamable HTTP against
// tests/support/faulty-server.ts: what counts, within a turn and across turns, and what the model
// and the user are told. (The cool-down and the trial after it: mcp/circuit-breaker.test.ts.)
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { TestSocket } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";
import type { Conversation } from "./conversation";
import { failureLimit, forgetOldFailures, skipSentence } from "./mcp-failure-limit";

/** A user with one server `name`, on the faulty server's channel `name`; and the server's id. */
async function userWithServer(name: string): Promise<TestUser & { serverId: string }> {
  const user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name, url: `${inject("faultyUrl")}/${name}/mcp`, timeoutMs: 15_000 },
  });
  expect(res.status).toBe(201);
  return { ...user, serverId: ((await res.json()) as { id: string }).id };
}

async function runs(name: string): Promise<Record<string, number>> {
  const res = await fetch(`${inject("faultyUrl")}/${name}/runs`);
  return (await res.json()) as Record<string, number>;
}

/**
 * Sends the turns one after another in one conversation; the events of each turn. `before` runs
 * before the turn of the same index, if there is one.
 */
async function turns(
  user: TestUser,
  texts: string[],
  before: Record<number, (conversationId: string) => Promise<void>> = {},
): Promise<ServerEvent[][]> {
  const conv = await createConversation(user);
  const ws = await TestSocket.openSynced(user, conv.id);
  const each: ServerEvent[][] = [];
  for (const [i, text] of texts.entries()) {
    await before[i]?.(conv.id);
    const seen = ws.events().length;
    ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text });
    const ended = () => ws.events().slice(seen);
    await ws.until(
      () => ended().some((e) => e.type === "turn_ended" || e.type === "turn_failed"),
      30_000,
    );
    each.push(ws.events().slice(seen));
  }
  ws.close();
  return each;
}

const resultOf = (events: ServerEvent[], callId: string) =>
  events.find(
    (e): e is Extract<ServerEvent, { type: "tool_result" }> =>
      e.type === "tool_result" && e.callId === callId,
  );

const notices = (events: ServerEvent[]) =>
  events.flatMap((e) => (e.type === "notice" ? [e.message] : []));

describe("an MCP server's failure limit", () => {
  it("counts failures in a row across turns, then stops calling the server and says so", async () => {
    const user = await userWithServer("faulty-limit");
    // Two failed calls in one turn, a third in the next: the limit (3) is reached there.
    // Then the user edits the server (to fix it: a header here): an edited server starts afresh.
    const edit = async () => {
      const res = await api(user, `/api/mcp-servers/${user.serverId}`, {
        method: "PATCH",
        json: { headers: { "x-fixed": "yes" } },
      });
      expect(res.status).toBe(200);
    };
    const [first, second, third, fourth] = await turns(
      user,
      [
        "faulty limit twice please",
        "faulty limit again please",
        "hello after the limit",
        "faulty edited please",
      ],
      { 3: edit },
    );
    expect(resultOf(first!, "fl-a2")?.summary).toMatch(/^faulty-limit: .*connection .* lost/);
    expect(resultOf(first!, "fl-a2")?.summary).not.toMatch(/times in a row/);
    expect(resultOf(second!, "fl-b1")?.summary).toMatch(
      /^faulty-limit \(failed 3 times in a row: skipped for 60 s\): the connection .* lost/,
    );
    // The next call is answered at once, without a request, saying why.
    const skipped = resultOf(second!, "fl-b2");
    expect(skipped).toMatchObject({ isError: true });
    // The last failure's cause too; the whole line fits the timeline's 140 characters.
    expect(skipped?.summary).toMatch(
      /^faulty-limit: not called, it failed 3 times in a row \(last: connection lost\) and is skipped for \d+ s\.$/,
    );
    expect(skipped!.summary.length).toBeLessThanOrEqual(140);
    expect((await runs("faulty-limit")).crash_read).toBe(3);
    // The turn after: its tools are not offered, and the user is told why.
    expect(notices(third!).join(" ")).toMatch(
      /The MCP server 'faulty-limit' failed 3 times in a row \(last: connection lost\) and is skipped for \d+ s; it is tried again after that\./,
    );
    // Edited, it is called at once.
    expect(resultOf(fourth!, "fe1")).toMatchObject({ isError: false, summary: "All fine." });
    expect((await runs("faulty-limit")).ok_read).toBe(1);
  }, 60_000);

  it("results that are no valid MCP result are the server's fault: three in a row switch it off", async () => {
    const user = await userWithServer("faulty-shapes");
    const [events] = await turns(user, ["faulty shapes please"]);
    const said = ["fm-1", "fm-2", "fm-3"].map((id) => resultOf(events!, id)?.summary);
    const malformed =
      "the server sent a malformed result: `content` must be an array (it was a string).";
    expect(said.filter((s) => s === `faulty-shapes: ${malformed}`)).toHaveLength(2);
    expect(said).toContain(
      `faulty-shapes (failed 3 times in a row: skipped for 60 s): ${malformed}`,
    );
    // The server's other tool is not called.
    expect(resultOf(events!, "fm-4")?.summary).toMatch(/^faulty-shapes: not called, /);
    expect((await runs("faulty-shapes")).ok_read).toBeUndefined();
  }, 60_000);

  it("a call that needs approval, to a server switched off, is answered at once: no approval is asked", async () => {
    const user = await userWithServer("faulty-skipwipe");
    const [events] = await turns(user, ["faulty skipped wipe please"]);
    // Three malformed results reach the limit; the destructive call after them is not put to
    // the user, since it would not be made.
    expect(events!.some((e) => e.type === "approval_requested")).toBe(false);
    expect(resultOf(events!, "fk-4")).toMatchObject({ isError: true });
    expect(resultOf(events!, "fk-4")?.summary).toMatch(/^faulty-skipwipe: not called, /);
    expect(events!.some((e) => e.type === "turn_ended")).toBe(true);
    expect((await runs("faulty-skipwipe"))["wipe:drafts"]).toBeUndefined();
  }, 60_000);

  it("a server skipped mid-turn still answers as skipped after the tool list is read again", async () => {
    const user = await userWithServer("faulty-rebuild");
    // A second server whose call changes its tools (tools/list_changed): the turn's next step
    // reads the list again, while faulty-rebuild is skipped.
    const channel = crypto.randomUUID().slice(0, 8);
    const url = inject("changingUrl").replace(/\/mcp$/, `/${channel}/mcp`);
    const added = await api(user, "/api/mcp-servers", {
      method: "POST",
      json: { name: "changing-rebuild", url },
    });
    expect(added.status).toBe(201);
    const [events] = await turns(user, ["faulty rebuild please"]);
    expect(resultOf(events!, "fr-4")).toMatchObject({ isError: false });
    // The model calls the skipped server's tool, which it was offered a step before.
    const skipped = resultOf(events!, "fr-5");
    expect(skipped).toMatchObject({ isError: true });
    expect(skipped?.summary).toMatch(/^faulty-rebuild: not called, it failed 3 times in a row /);
    expect((await runs("faulty-rebuild")).ok_read).toBeUndefined();
    // The call that reached the limit said so: the list read again does not say it once more.
    expect(notices(events!).join(" ")).not.toMatch(/'faulty-rebuild'/);
    expect(events!.some((e) => e.type === "turn_ended")).toBe(true);
  }, 60_000);

  it("a server whose tool list fails when read again mid-turn: the user is told, and its tools are still called", async () => {
    const user = await userWithServer("faulty-relist");
    const [events] = await turns(user, ["faulty relist please"]);
    expect(resultOf(events!, "fx-1")).toMatchObject({ isError: false, summary: "List broken." });
    expect(notices(events!).join(" ")).toMatch(
      /The MCP server 'faulty-relist' is unavailable \(the server answered HTTP 502\)\./,
    );
    // The tool it offered a step before is called, not taken for one that does not exist.
    expect(resultOf(events!, "fx-2")).toMatchObject({ isError: false, summary: "All fine." });
    expect((await runs("faulty-relist")).ok_read).toBe(1);
  }, 60_000);

  it("a server tried again after its skip that answers is back, and the user is told", async () => {
    const user = await userWithServer("faulty-back");
    // As if the cool-down (60 s here) had passed since the limit was reached.
    const cooledDown = (conversationId: string) =>
      runInDurableObject(
        env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId)),
        (i: Conversation) => {
          const [row] = i.store.metaWithPrefix("breaker:faulty-back:");
          const state = JSON.parse(row!.value) as { openedAt: number | null };
          expect(state.openedAt).not.toBeNull();
          i.store.setMeta(row!.key, JSON.stringify({ ...state, openedAt: Date.now() - 61_000 }));
        },
      );
    const [first, second, third] = await turns(
      user,
      ["faulty back please", "faulty back again please", "faulty back again please"],
      { 1: cooledDown },
    );
    expect(notices(first!).join(" ")).not.toMatch(/answers again/);
    expect(resultOf(second!, "fb-4")).toMatchObject({ isError: false, summary: "All fine." });
    expect(notices(second!)).toContain(
      "The MCP server 'faulty-back' answers again; it is no longer skipped.",
    );
    // Said once: the next turn's answer is nothing new.
    expect(notices(third!).join(" ")).not.toMatch(/answers again/);
  }, 60_000);

  it("calls the server refused as invalid are the server's answer: they do not switch it off", async () => {
    const user = await userWithServer("faulty-strict");
    const [events] = await turns(user, ["faulty strict please"]);
    expect(resultOf(events!, "fs1")).toMatchObject({
      isError: true,
      summary:
        "faulty-strict: the server refused the call: Invalid arguments: `query` is required.",
    });
    expect((await runs("faulty-strict")).strict_read).toBe(3);
    // Three refusals in a row, and the server's next tool still runs.
    expect(resultOf(events!, "fs4")).toMatchObject({ isError: false, summary: "All fine." });
    expect((await runs("faulty-strict")).ok_read).toBe(1);
  }, 60_000);
});

describe("failureLimit", () => {
  const store = () => {
    const meta = new Map<string, string>();
    return {
      meta,
      getMeta: (k: string) => meta.get(k) ?? null,
      setMeta: (k: string, v: string) => void meta.set(k, v),
      metaWithPrefix: (p: string) =>
        [...meta].filter(([k]) => k.startsWith(p)).map(([key, value]) => ({ key, value })),
      deleteMeta: (k: string) => void meta.delete(k),
    };
  };

  it("skips a server after three failures in a row, for the cool-down, and takes it back once it answers", () => {
    let now = 0;
    const limit = failureLimit(store(), { threshold: 3, cooldownMs: 30_000 }, () => now);
    const s = { name: "s", url: "https://s.example/mcp" };
    expect([limit.failed(s, "HTTP 500"), limit.failed(s, "HTTP 500")]).toEqual([null, null]);
    expect(limit.skipped(s)).toBeNull();
    expect(limit.failed(s, "HTTP 502")).toEqual({ failures: 3, skippedForS: 30 });
    now = 10_000;
    // The last failure's cause is kept, so the skip can say why.
    expect(limit.skipped(s)).toEqual({ failures: 3, forS: 20, cause: "HTTP 502" });
    // After the cool-down it is tried again; an answer ends the skipping.
    now = 30_000;
    expect(limit.skipped(s)).toBeNull();
    // It had been skipped: it is back.
    expect(limit.succeeded(s)).toBe(true);
    expect(limit.succeeded(s)).toBe(false);
    expect(limit.failed(s, "HTTP 502")).toBeNull();
    expect(limit.skipped(s)).toBeNull();
  });

  it("a skip's sentence names the last failure, cut to fit the room it has", () => {
    const skip = { failures: 3, forS: 25, cause: "timed out after 30 s" };
    expect(skipSentence(skip)).toBe(
      "failed 3 times in a row (last: timed out after 30 s) and is skipped for 25 s",
    );
    const long = {
      ...skip,
      cause: "an unreadable answer: an event that is not JSON: <html><body>",
    };
    const cut = skipSentence(long, 80);
    expect(cut).toMatch(
      /^failed 3 times in a row \(last: an unreadable .*…\) and is skipped for 25 s$/,
    );
    expect(cut.length).toBeLessThanOrEqual(80);
    // No room for a cause worth reading: left out rather than cut to nothing.
    expect(skipSentence(long, 50)).toBe("failed 3 times in a row and is skipped for 25 s");
    expect(skipSentence({ ...skip, cause: null })).toBe(
      "failed 3 times in a row and is skipped for 25 s",
    );
  });

  it("counts of servers since removed or edited, and rows of earlier versions, are forgotten", () => {
    const st = store();
    const limit = failureLimit(st, { threshold: 3, cooldownMs: 30_000 });
    const kept = { name: "kept", url: "https://k.example/mcp", editedAt: 5 };
    const edited = { name: "edited", url: "https://e.example/mcp", editedAt: 1 };
    limit.failed(kept, "HTTP 502");
    limit.failed(edited, "HTTP 502");
    limit.failed({ name: "removed", url: "https://r.example/mcp" }, "HTTP 502");
    st.meta.set("breaker:kept", JSON.stringify({ failures: 2, openedAt: null }));
    st.meta.set(
      "breaker:kept:https://k.example/mcp",
      JSON.stringify({ failures: 1, openedAt: null }),
    );
    st.meta.set("session:other", "{}");
    forgetOldFailures(st, [kept, { ...edited, editedAt: 2 }]);
    expect([...st.meta.keys()]).toEqual(["breaker:kept:https://k.example/mcp:5", "session:other"]);
    // What is kept still counts.
    limit.failed(kept, "HTTP 502");
    expect(limit.failed(kept, "HTTP 502")).toEqual({ failures: 3, skippedForS: 30 });
  });
});
