// Tool calling end to end through the API worker and the Conversation DO: a model in prompt mode
// (tool_call blocks in its text) calling a real MCP server, and a model offered a capped share of
// 300 tools from real MCP servers that loads the one it needs with find_tools. aimock's journal
// is the witness of what the model was sent.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { HIDDEN_TOOL, TOOLS_PER_SERVER } from "../../tests/support/many-tools-server";
import { PROMPT_MODE_ECHO } from "../../tests/support/tool-calling-fixtures";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";
import type { ServerEvent, ServerFrame } from "../protocol/wire";
import { DEFAULT_MAX_TOOLS_PER_STEP } from "../loop/tool-selection";
import { TITLE_INSTRUCTION } from "./titles";

interface SentRequest {
  messages: Array<{ role: string; content?: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

/** The model requests (not the automatic title's) whose first user message contains `marker`. */
async function sentWith(marker: string): Promise<SentRequest[]> {
  const res = await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=5000`);
  const journal = (await res.json()) as unknown;
  const entries = (
    Array.isArray(journal) ? journal : ((journal as { entries?: unknown[] }).entries ?? [])
  ) as Array<{ body?: SentRequest | null }>;
  return entries.flatMap((e) => {
    const body = e.body;
    const first = body?.messages.find((m) => m.role === "user");
    const raw = JSON.stringify(body?.messages ?? []);
    return body &&
      JSON.stringify(first?.content ?? "").includes(marker) &&
      !raw.includes(TITLE_INSTRUCTION)
      ? [body]
      : [];
  });
}

async function send(user: TestUser, conversationId: string, text: string) {
  const ws = await TestSocket.open(user, conversationId);
  ws.send({ type: "resume", lastSeq: 0 });
  await ws.until((frames) => frames.some((f) => f.type === "synced"));
  const clientMessageId = crypto.randomUUID();
  ws.send({ type: "send", clientMessageId, text });
  let from = 0;
  const ended = (frames: ServerFrame[]) => {
    from = frames.findIndex(
      (f) => f.type === "user_message" && f.message.clientMessageId === clientMessageId,
    );
    return from >= 0 && turnEnded(frames.slice(from));
  };
  await ws.until(ended, 45_000);
  ws.close();
  return { all: ws.events(), answer: fold(ws.events()).messages.at(-1) };
}

const notices = (events: ServerEvent[]) =>
  events.flatMap((e) => (e.type === "notice" ? [e.message] : []));

describe("a conversation in prompt mode", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser();
    const res = await api(user, "/api/mcp-servers", {
      method: "POST",
      json: { name: "everything", url: inject("everythingUrl") },
    });
    expect(res.status).toBe(201);
  });

  it("calls a real MCP tool through a tool_call block and answers from its result, telling the user once", async () => {
    const conv = await createConversation(user, { settings: { toolCalling: "prompt" } });
    const first = await send(user, conv.id, "tc-prompt-mode question: echo something");

    // The block, split across seven-character chunks, became a call the server answered.
    const answer = first.answer!;
    expect(answer.status).toBe("complete");
    expect(answer.content).toContainEqual(
      expect.objectContaining({
        type: "tool_call",
        server: "everything",
        tool: "echo",
        arguments: { message: PROMPT_MODE_ECHO },
        status: "done",
      }),
    );
    expect(answer.content).toContainEqual({
      type: "text",
      text: `The echo said: ${PROMPT_MODE_ECHO}.`,
    });
    // The block itself is not shown as text.
    expect(JSON.stringify(answer.content)).not.toContain("```tool_call");

    // No tool definitions on the wire: the tools are in the system prompt, the result comes back
    // as text.
    const [step1, step2, ...more] = await sentWith("tc-prompt-mode question");
    expect(more).toEqual([]);
    expect(step1!.tools ?? []).toEqual([]);
    const system = JSON.stringify(step1!.messages.find((m) => m.role === "system")?.content);
    expect(system).toContain("```tool_call");
    expect(system).toContain("everything__echo");
    expect(JSON.stringify(step2!.messages.at(-1))).toContain(
      `Result of everything__echo (ok):\\nEcho: ${PROMPT_MODE_ECHO}`,
    );

    const told = notices(first.all).filter((n) => /prompt mode/.test(n));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^claude-haiku-4-5 calls tools in prompt mode/);
    // Once per conversation: the next turn does not say it again.
    const second = await send(user, conv.id, "tc-prompt-mode follow-up");
    expect(notices(second.all).filter((n) => /prompt mode/.test(n))).toHaveLength(1);
  }, 90_000);

  it("says nothing of prompt mode to a model with native tools", async () => {
    const conv = await createConversation(user);
    const { all } = await send(user, conv.id, "tc-native question");
    expect(notices(all).filter((n) => /prompt mode/.test(n))).toEqual([]);
  }, 60_000);
});

describe("300 tools from real MCP servers", () => {
  it("offers at most the cap, and find_tools loads the tool the model needs", async () => {
    const user = await createUser();
    for (const name of ["lab", "records"]) {
      const res = await api(user, "/api/mcp-servers", {
        method: "POST",
        json: { name, url: `${inject("manyToolsUrl")}/${name}/mcp` },
      });
      expect(res.status).toBe(201);
    }
    const conv = await createConversation(user);
    const { all, answer } = await send(user, conv.id, "tc-many-tools question: what do we have?");

    const offered = (r: SentRequest | undefined) => (r?.tools ?? []).map((t) => t.function.name);
    const [first, second, third] = await sentWith("tc-many-tools question");
    // Each step: the cap's worth of tools (find_tools among them), response_formatter on top.
    for (const step of [first, second, third]) {
      const names = offered(step);
      expect(names).toContain("find_tools");
      expect(names.filter((n) => n !== "response_formatter").length).toBeLessThanOrEqual(
        DEFAULT_MAX_TOOLS_PER_STEP,
      );
    }
    const hidden = `lab__${HIDDEN_TOOL.name}`;
    expect(offered(first)).not.toContain(hidden);
    expect(offered(second)).toContain(hidden);

    // The timeline says how many tools were offered and why.
    expect(notices(all)).toContainEqual(
      expect.stringMatching(
        new RegExp(`of ${2 * TOOLS_PER_SERVER} tools offered, with find_tools \\(the cap is 40\\)`),
      ),
    );
    expect(answer?.status).toBe("complete");
    expect(answer?.content).toContainEqual(
      expect.objectContaining({ type: "tool_call", tool: "find_tools", status: "done" }),
    );
    expect(answer?.content).toContainEqual(
      expect.objectContaining({
        type: "tool_call",
        server: "lab",
        tool: HIDDEN_TOOL.name,
        arguments: { sample: "S-7" },
        status: "done",
      }),
    );
    expect(answer?.content).toContainEqual({
      type: "text",
      text: "Sample S-7 has a ferritin of 85 ng/mL.",
    });
  }, 90_000);
});
