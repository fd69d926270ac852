// Figures for the tool cap with 300 tools: time to choose a step's tools (BM25 over names and
// descriptions) and the size of the request the model receives, capped and uncapped.
import { findToolsTool } from "../../../durable-objects/loop/find-tools";
import { formatterTool } from "../../../durable-objects/loop/formatter";
import { manyTools } from "../../../durable-objects/loop/test/many-tools";
import {
  conversationQuery,
  DEFAULT_MAX_TOOLS_PER_STEP,
  selectTools,
} from "../../../durable-objects/loop/tool-selection";
import { toOpenAIRequest } from "../../../durable-objects/providers/openai/build-request";
import type { NeutralMessage, ToolDefinition } from "../../../durable-objects/providers/types";

const RUNS = Number(process.env.BENCH_RUNS ?? 400);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const catalog: ToolDefinition[] = manyTools(300).map((t) => ({
  name: `${t.server}__${t.tool}`,
  description: t.description,
  inputSchema: t.inputSchema,
}));
const questions = [
  "Which clinical trials are recruiting for asthma in Europe?",
  "Plot last month's signups as a bar chart",
  "Find the pull requests about the login bug and email the team",
  "What will the weather be in Lyon for the next three days?",
];
const messages = (text: string): NeutralMessage[] => [
  { role: "user", content: [{ type: "text", text }] },
];

const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const query = conversationQuery(messages(questions[i % questions.length]!));
  const start = performance.now();
  selectTools(catalog, query, DEFAULT_MAX_TOOLS_PER_STEP);
  times.push(performance.now() - start);
}
console.log(
  `choosing ${DEFAULT_MAX_TOOLS_PER_STEP} of ${catalog.length} tools: p50 ${pct(times, 50).toFixed(2)} ms, p99 ${pct(times, 99).toFixed(2)} ms (n=${RUNS})`,
);

const bytes = (tools: ToolDefinition[]) =>
  JSON.stringify(
    toOpenAIRequest({ model: "gpt-4o-mini", messages: messages(questions[0]!), tools }, true),
  ).length;
const capped = selectTools(
  catalog,
  conversationQuery(messages(questions[0]!)),
  DEFAULT_MAX_TOOLS_PER_STEP,
);
const all = bytes([...catalog, formatterTool]);
const some = bytes([...capped.offered, findToolsTool, formatterTool]);
console.log(
  `request size (OpenAI wire format): all 300 tools ${(all / 1024).toFixed(1)} KiB, capped at ${DEFAULT_MAX_TOOLS_PER_STEP} ${(some / 1024).toFixed(1)} KiB (${((100 * some) / all).toFixed(0)} %)`,
);
