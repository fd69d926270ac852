// Figures for the provider adapters and the thinking loop, measured in Node against aimock.
import { LLMock } from "@copilotkit/aimock";
import { runThinkingLoop } from "../../../durable-objects/loop/loop";
import { memoryLog } from "../../../durable-objects/loop/test/scripted-loop";
import { createProvider } from "../../../durable-objects/providers/registry";
import { streamWithRetries } from "../../../durable-objects/providers/retry";
import { buildToolNameMap } from "../../../durable-objects/providers/tool-names";
import type { ProviderConfig, ProviderId } from "../../../durable-objects/providers/types";
import { processToolResult } from "../../../durable-objects/loop/tool-results";
import { toBase64 } from "../../../shared/base64";

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const fmt = (xs: number[]) =>
  `p50 ${pct(xs, 50).toFixed(2)} ms, p99 ${pct(xs, 99).toFixed(2)} ms (n=${xs.length})`;

const mock = new LLMock({ host: "127.0.0.1", port: 0, logLevel: "silent" });
mock.onMessage(/bench text/, { content: "x".repeat(400) }, { chunkSize: 20 });
mock.on({ toolResultContains: "echoed" }, { content: "Done." });
mock.onMessage(/bench tool/, {
  toolCalls: [{ id: "t1", name: "bench__echo", arguments: '{"message":"hi"}' }],
});
await mock.start();

const configs: Record<ProviderId, ProviderConfig> = {
  anthropic: { apiKey: "k", baseURL: mock.url },
  openai: { apiKey: "k", baseURL: `${mock.url}/v1` },
  gemini: { apiKey: "k", baseURL: mock.url },
  ollama: { baseURL: mock.url },
};
const models: Record<ProviderId, string> = {
  anthropic: "claude-haiku-4-5",
  openai: "gpt-4o-mini",
  gemini: "gemini-2.5-flash",
  ollama: "llama3.2:latest",
};

console.log(
  "In-process (Node, no Durable Object, no network): the adapters and the loop alone; see e2e.mjs for the app end to end.\n",
);
console.log(
  "Adapter overhead: aimock's first byte (response headers) to the first text-delta event",
);
for (const id of Object.keys(configs) as ProviderId[]) {
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    let firstByte = 0;
    const fetchTimed: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      firstByte = performance.now();
      return res;
    };
    const provider = createProvider(id, { ...configs[id], fetch: fetchTimed });
    for await (const e of provider.stream({
      model: models[id],
      messages: [{ role: "user", content: [{ type: "text", text: "bench text" }] }],
    })) {
      if (e.type === "text_delta") {
        if (i >= 3) samples.push(performance.now() - firstByte); // the first runs warm the JIT and the SDK import
        break;
      }
    }
  }
  console.log(`  ${id.padEnd(9)} ${fmt(samples)}`);
}

console.log(
  "\nThinking loop: orchestration overhead per step (all but the model and the tool), trivial tool",
);
const overhead: number[] = [];
const modelCalls: number[] = [];
for (let i = 0; i < RUNS + 3; i++) {
  let inModel = 0;
  let inTool = 0;
  let calls = 0;
  const log = memoryLog();
  const names = buildToolNameMap([{ server: "bench", tool: "echo" }]);
  const provider = createProvider("anthropic", configs.anthropic);
  const started = performance.now();
  let steps = 0;
  await runThinkingLoop(
    {
      provider,
      // Time spent waiting on the model's stream; the loop's own work between events is not in it.
      stream: async function* (p, request) {
        const it = streamWithRetries(p, request)[Symbol.asyncIterator]();
        for (;;) {
          const t = performance.now();
          const next = await it.next();
          inModel += performance.now() - t;
          if (next.done) return;
          yield next.value;
        }
      },
      tools: {
        catalog: async () => ({
          tools: [
            {
              server: "bench",
              tool: "echo",
              description: "echo",
              inputSchema: { type: "object", properties: { message: { type: "string" } } },
            },
          ],
          warnings: [],
        }),
        call: async () => {
          const t = performance.now();
          const result = { content: [{ type: "text", text: "echoed" }] };
          inTool += performance.now() - t;
          return { ok: true, result };
        },
      },
      calls: log,
      toolNames: names,
      saveArtifact: async (d) => ({ id: crypto.randomUUID(), type: d.type, title: d.title }),
      // The DO writes each checkpoint and event to SQLite; serialising them is the part we pay here.
      checkpoint: (state) => void JSON.stringify(state),
      emit: (e) => {
        if (e.type === "step_started") steps++;
        void JSON.stringify(e);
      },
      recordUsage: () => undefined,
      onModelCall: () => void calls++,
    },
    {
      turnId: "t",
      messageId: "m",
      model: models.anthropic,
      system: "bench",
      history: [{ role: "user", content: [{ type: "text", text: "bench tool" }] }],
      maxSteps: 5,
      maxTokens: 1000,
      signal: new AbortController().signal,
    },
  );
  if (i >= 3) {
    overhead.push((performance.now() - started - inModel - inTool) / steps);
    modelCalls.push(calls);
  }
}
console.log(
  `  per step  ${fmt(overhead)}   (waiting on the model's stream and on the tool is excluded)`,
);
console.log(
  `  model calls per tool-using turn: ${[...new Set(modelCalls)].join(", ")} (two steps: the tool call, then the answer; no separate formatter call)`,
);

// An MCP tool's 1 MiB image (a screenshot, say): its result read into an artifact's bytes.
const screenshot = new Uint8Array(1024 * 1024);
for (let i = 0; i < screenshot.length; i += 65_536)
  crypto.getRandomValues(screenshot.subarray(i, i + 65_536));
const imageResult = {
  content: [{ type: "image", data: toBase64(screenshot), mimeType: "image/png" }],
};
const reading: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  processToolResult(imageResult, "screenshot");
  if (i >= 3) reading.push(performance.now() - started);
}
console.log(`\nA tool result holding a 1 MiB image, read into an artifact:\n  ${fmt(reading)}`);
await mock.stop();
