import { describe, expect, it } from "vitest";
import { bearer, createConversation, createUser } from "../../../../tests/support/helpers";
import { TestSocket, turnEnded } from "../../../../tests/support/ws-client";
import { upgradeForObject } from "./websocket-auth";

describe("the upgrade a conversation's object receives", () => {
  it("keeps the client's resume and drops agents' transport switch", () => {
    const asked = new Request(
      "http://app.test/api/conversations/c1/ws?resume=3&compact=1&__agents_transport=capnweb",
      { headers: { upgrade: "websocket" } },
    );
    const forwarded = upgradeForObject(asked, {
      credential: { userId: "u1", tokenId: "t1" },
      name: "Ada",
    });
    const url = new URL(forwarded.url);
    expect(url.searchParams.has("__agents_transport")).toBe(false);
    expect(url.searchParams.get("resume")).toBe("3");
    expect(url.searchParams.get("compact")).toBe("1");
    expect(forwarded.headers.get("upgrade")).toBe("websocket");
  });

  it("a socket that asks for agents' Cap'n Web transport speaks the app's protocol", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const ws = await TestSocket.openWith(conv.id, bearer(user), "?__agents_transport=capnweb");
    ws.send({ type: "resume", lastSeq: 0 });
    await ws.until((f) => f.some((x) => x.type === "synced"));
    ws.send({ type: "send", clientMessageId: "capnweb-1", text: "hello there" });
    await ws.until(turnEnded);
    expect(ws.frames.filter((f) => f.type === "turn_ended")).toHaveLength(1);
    ws.close();
  });
});
