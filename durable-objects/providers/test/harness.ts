// Shared by the provider tests (in workerd): a provider pointed at aimock, a way to run one call
// with or without the retry policy, and aimock's journal of what each call sent.
import { inject } from "vitest";
import { createProvider, DEFAULT_MODELS } from "../registry";
import { streamWithRetries } from "../retry";
import type {
  ModelProvider,
  ModelRequest,
  NeutralMessage,
  ProviderConfig,
  ProviderId,
  StreamEvent,
  ToolDefinition,
} from "../types";

export const mockUrl = () => inject("providerMockUrl");

export function mockConfig(id: ProviderId, extra: Partial<ProviderConfig> = {}): ProviderConfig {
  const url = mockUrl();
  const base: Record<ProviderId, ProviderConfig> = {
    anthropic: { apiKey: "test-key", baseURL: url },
    openai: { apiKey: "test-key", baseURL: `${url}/v1` },
    gemini: { apiKey: "test-key", baseURL: url },
    ollama: { baseURL: url },
  };
  return { ...base[id], ...extra, headers: { ...base[id].headers, ...extra.headers } };
}

export const TOOLS: ToolDefinition[] = [
  {
    name: "get_weather",
    description: "Weather for a city",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string" },
        units: { type: "string", enum: ["celsius", "fahrenheit"] },
        days: { type: "array", items: { type: "integer" } },
      },
      required: ["city"],
    },
  },
  {
    name: "get_time",
    description: "Time in a zone",
    inputSchema: { type: "object", properties: { zone: { type: "string" } } },
  },
];

export const userSays = (text: string): NeutralMessage[] => [
  { role: "user", content: [{ type: "text", text }] },
];

/** A history whose last step called get_weather, which answered with an image (after `text`). */
export const toolAnsweredWithImage = (text?: string): NeutralMessage[] => [
  ...userSays("Chart it."),
  {
    role: "assistant",
    content: [{ type: "tool_call", id: "c1", name: "get_weather", arguments: {} }],
  },
  {
    role: "tool",
    content: [
      {
        type: "tool_result",
        callId: "c1",
        name: "get_weather",
        content: [
          ...(text ? [{ type: "text" as const, text }] : []),
          { type: "image", mediaType: "image/png", data: "iVBO" },
        ],
      },
    ],
  },
];

export interface Run {
  events: StreamEvent[];
  /** Each attempt's wait before it, as the retry policy asked for it. */
  delays: number[];
  /** The requests aimock received for this run (one per attempt). */
  requests: () => Promise<JournalEntry[]>;
}

export interface JournalEntry {
  path: string;
  headers: Record<string, string>;
  body: { messages?: Array<Record<string, unknown>>; [k: string]: unknown } | null;
  response: { status: number; interrupted?: boolean };
}

let runs = 0;

/** One model call against aimock; `retries: true` goes through streamWithRetries. */
export async function run(
  id: ProviderId,
  request: Partial<ModelRequest> & { messages: NeutralMessage[] },
  opts: {
    retries?: boolean;
    config?: Partial<ProviderConfig>;
    /** Wraps the adapter (prompt-based tool calling). */
    wrap?: (provider: ModelProvider) => ModelProvider;
  } = {},
): Promise<Run> {
  const testId = `${id}-${Date.now()}-${++runs}`;
  const wrap = opts.wrap ?? ((p: ModelProvider) => p);
  const provider = wrap(
    createProvider(
      id,
      mockConfig(id, { ...opts.config, headers: { "X-Test-Id": testId, ...opts.config?.headers } }),
    ),
  );
  const full: ModelRequest = { model: DEFAULT_MODELS[id], system: "Be brief.", ...request };
  const delays: number[] = [];
  const stream = opts.retries
    ? streamWithRetries(provider, full, { sleep: async (ms) => void delays.push(ms) })
    : provider.stream(full);
  const events: StreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return {
    events,
    delays,
    requests: () => journal(testId),
  };
}

/**
 * A fetch that still talks to aimock but keeps each JSON body it sent: aimock's journal shows a
 * request normalised to chat messages, this shows the provider's own wire format.
 */
export function recordingFetch() {
  const bodies: Array<Record<string, unknown>> = [];
  const record: typeof fetch = async (input, init) => {
    if (typeof init?.body === "string")
      bodies.push(JSON.parse(init.body) as Record<string, unknown>);
    return fetch(input, init);
  };
  return { fetch: record, bodies };
}

export const textOf = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("");

export const reasoningOf = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.type === "reasoning_delta" ? [e.text] : [])).join("");

export const callsOf = (events: StreamEvent[]) =>
  events.filter((e): e is Extract<StreamEvent, { type: "tool_call" }> => e.type === "tool_call");

export const errorOf = (events: StreamEvent[]) =>
  events.find((e): e is Extract<StreamEvent, { type: "error" }> => e.type === "error")?.error;

async function journal(testId: string): Promise<JournalEntry[]> {
  const url = `${mockUrl()}/__aimock/journal?testId=${encodeURIComponent(testId)}`;
  // aimock closes a connection it cut mid-stream; workerd may have pooled that socket already.
  for (let attempt = 1; ; attempt++) {
    try {
      return (await (await fetch(url)).json()) as JournalEntry[];
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}
