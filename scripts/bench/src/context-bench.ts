// See ../context.mjs. Figures go to stdout; nothing here asserts.
import { toNeutralHistory, type StoredResult } from "../../../durable-objects/conversation/history";
import { modelWindow } from "../../../durable-objects/loop/context-budget";
import { contextFitter } from "../../../durable-objects/loop/context-fit";
import type { ChatMessage } from "../../../durable-objects/protocol/messages";
import { systemPrompt } from "../../../durable-objects/loop/prompts";
import type { ProviderId } from "../../../durable-objects/providers/types";

const MESSAGES = Number(process.env.BENCH_CONTEXT_MESSAGES ?? 2000);
const RUNS = Number(process.env.BENCH_CONTEXT_RUNS ?? 200);
const WARM_UP = 50;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

// A research conversation: every third answer used a tool, some results long.
const results = new Map<string, StoredResult>();
const messages: ChatMessage[] = Array.from({ length: MESSAGES }, (_, i) => {
  const seq = i + 1;
  const base = {
    id: `m${seq}`,
    status: "complete" as const,
    seq,
    createdAt: seq,
    clientMessageId: null,
  };
  if (seq % 2 === 1)
    return {
      ...base,
      role: "user",
      content: [
        { type: "text", text: `Question ${seq}: ${"what about the trial results? ".repeat(6)}` },
      ],
    };
  const callId = `call-${seq}`;
  const usedTool = seq % 6 === 0;
  if (usedTool)
    results.set(callId, {
      forModel: [
        {
          type: "text",
          text: `PubMed result ${seq}: ${"abstract text ".repeat(seq % 12 === 0 ? 400 : 40)}`,
        },
      ],
      summary: `3 articles for query ${seq}`,
      isError: false,
    });
  return {
    ...base,
    role: "assistant",
    content: [
      ...(usedTool
        ? [
            {
              type: "tool_call" as const,
              callId,
              server: "literature",
              tool: "search_pubmed",
              arguments: { query: `q${seq}` },
              status: "done" as const,
              summary: "3 articles",
            },
          ]
        : []),
      {
        type: "text",
        text: `Answer ${seq}: ${"the evidence suggests a modest effect. ".repeat(10)}`,
      },
    ],
  };
});

const tools = [
  {
    name: "literature__search_pubmed",
    description: "Search PubMed",
    inputSchema: { type: "object", properties: { query: { type: "string" } } },
  },
];
const system = systemPrompt("normal", []);

function bench(provider: ProviderId, model: string, contextTokens?: number) {
  const times: number[] = [];
  let fitted: ReturnType<ReturnType<typeof contextFitter>["fitContext"]> | null = null;
  // The first runs measure the JIT compiling the code, not the code: run them, keep no times.
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const started = performance.now();
    const history = toNeutralHistory(messages, (id) => results.get(id));
    const fitter = contextFitter({
      window: modelWindow(provider, model, { contextTokens }),
      model,
      maxTokens: 4096,
      emit: () => {},
      stream: () => (async function* () {})(),
    });
    fitted = fitter.fitContext(history, system, tools);
    if (run >= WARM_UP) times.push(performance.now() - started);
  }
  const bytes = JSON.stringify({
    system: fitted!.system,
    messages: fitted!.messages,
    tools,
  }).length;
  const window = contextTokens ?? modelWindow(provider, model).contextTokens;
  console.log(
    `${MESSAGES} messages → ${provider}/${model} (window ${window} tokens): ` +
      // The minimum is the figure a loaded machine disturbs least.
      `p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms, ` +
      `min ${Math.min(...times).toFixed(2)} ms; ` +
      `request ${(bytes / 1024).toFixed(1)} KiB, ${fitted!.messages.length} messages sent`,
  );
}

bench("anthropic", "claude-haiku-4-5");
bench("ollama", "llama3.2:latest");
bench("anthropic", "claude-haiku-4-5", 8_000);
