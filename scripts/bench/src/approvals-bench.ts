// See ../approvals.mjs. Figures go to stdout; nothing here asserts.
import { startApprovalServer } from "../../../tests/support/approval-server";
import type { ServerEvent } from "../../../durable-objects/protocol/wire";
import { SseReader } from "../../../tests/support/sse-client";
import { startStack } from "../../../tests/e2e/stack";

const RUNS = Number(process.env.BENCH_APPROVAL_RUNS ?? 20);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
const fmt = (xs: number[]) =>
  `p50 ${pct(xs, 50).toFixed(0)} ms, p99 ${pct(xs, 99).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (n=${xs.length})`;

const notes = await startApprovalServer();
const stack = await startStack((mock) => {
  mock.on({ toolResultContains: "Deleted note" }, { content: "Done." });
  mock.onMessage(/delete note (\S+)/, {
    toolCalls: [{ id: "d1", name: "notes__delete_note", arguments: '{"name":"bench"}' }],
  });
});
const call = (
  path: string,
  init: { method?: string; body?: unknown; headers?: HeadersInit } = {},
) =>
  fetch(`${stack.url}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      authorization: `Bearer ${stack.token}`,
      "content-type": "application/json",
      ...init.headers,
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });

try {
  await call("/api/mcp-servers", { body: { name: "notes", url: notes.url } });

  // Park RUNS turns, each in its own conversation (its own Durable Object), at the approval.
  const parked: { id: string; approvalId: string; lastSeq: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const created = (await (
      await call("/api/conversations", { body: { title: `bench ${i}` } })
    ).json()) as { id: string };
    const stream = new SseReader(
      await call(`/api/conversations/${created.id}/chat`, {
        body: { clientMessageId: `bench-${i}`, text: `delete note n${i}` },
      }),
    );
    await stream.until((f) => f.some((x) => x.data.type === "approval_requested"), 60_000);
    stream.cancel();
    const asked = stream
      .events()
      .find(
        (e): e is Extract<ServerEvent, { type: "approval_requested" }> =>
          e.type === "approval_requested",
      )!;
    parked.push({ id: created.id, approvalId: asked.approvalId, lastSeq: asked.seq });
  }

  // Nothing of them stays in memory: the dev server restarts on its stored state (as a deploy).
  await stack.restart();

  const toResume: number[] = [];
  const toEnd: number[] = [];
  for (const p of parked) {
    const t0 = Date.now();
    const answered = await call(`/api/conversations/${p.id}/approvals/${p.approvalId}`, {
      body: { decision: "approve" },
    });
    if (answered.status !== 200) throw new Error(`approval answered ${answered.status}`);
    // The stream opens after the answer: the object was woken by the approval, not by a client.
    const events = await new SseReader(
      await call(`/api/conversations/${p.id}/events`, {
        headers: { "last-event-id": String(p.lastSeq) },
      }),
    ).done(60_000);
    const ran = events.find((e) => e.type === "tool_result" && e.callId === "d1");
    const end = events.find((e) => e.type === "turn_ended" || e.type === "turn_failed");
    if (!ran || end?.type !== "turn_ended") throw new Error(`turn did not resume: ${end?.type}`);
    // Event times are the server's clock, which is this machine's.
    toResume.push(ran.at - t0);
    toEnd.push(end.at - t0);
  }
  console.log(
    "Approval to resume, each conversation's Durable Object asleep (wrangler dev restarted after the turns parked):",
  );
  console.log(
    `  REST approval sent → the approved call's result (the tool answers at once): ${fmt(toResume)}`,
  );
  console.log(`  REST approval sent → the turn has ended (tool + one model call): ${fmt(toEnd)}`);
  console.log("(local machine under wrangler dev, aimock answering at once; Cloudflare's differs)");
} finally {
  await stack.stop();
  await notes.stop();
}
