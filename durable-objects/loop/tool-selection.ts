// Which tools a step offers the model when the catalog is larger than the cap. Hundreds of tool
// definitions on every request cost tokens and confuse small models, so above the cap the tools
// most relevant to the conversation are offered (BM25 over names and descriptions), with the
// ones the model loaded through `find_tools`, and `find_tools` itself to reach the rest.
import type { NeutralMessage, ToolDefinition } from "../providers/types";

export const DEFAULT_MAX_TOOLS_PER_STEP = 40;

export interface ToolSelection {
  offered: ToolDefinition[];
  /** Tools of the catalog not offered this step (reachable through find_tools). */
  deferred: number;
  /** Why these tools, for the timeline; absent when every tool is offered. */
  reason?: string;
}

const STOP_WORDS = new Set(
  "a an and are as at be by for from has have i in is it its me my of on or please that the this to was what when which with you your".split(
    " ",
  ),
);

/** Words of a text: names split at `_`, `-`, `.` and camelCase, lower case, no stop words. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/** BM25 (k1 1.2, b 0.75) of every document for the query; documents keep their order. */
export function bm25Scores(query: string, documents: string[]): number[] {
  const docs = documents.map(tokenize);
  const avgLength = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const terms = [...new Set(tokenize(query))];
  const documentFrequency = new Map(
    terms.map((t) => [t, docs.filter((d) => d.includes(t)).length]),
  );
  return docs.map((doc) => {
    let score = 0;
    for (const term of terms) {
      const tf = doc.filter((w) => w === term).length;
      if (tf === 0) continue;
      const df = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * doc.length) / (avgLength || 1)));
    }
    return score;
  });
}

/** The tools ranked for a query, best first (ties keep catalog order); `relevantOnly` drops misses. */
export function rankTools(
  query: string,
  tools: ToolDefinition[],
  relevantOnly = false,
): ToolDefinition[] {
  const scores = bm25Scores(
    query,
    tools.map((t) => `${t.name} ${t.description}`),
  );
  return tools
    .map((tool, i) => ({ tool, score: scores[i] ?? 0, i }))
    .filter((r) => !relevantOnly || r.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((r) => r.tool);
}

/**
 * The tools for one step: all of them under the cap; above it the loaded ones, then the most
 * relevant to `query`, `cap` in all (the find_tools meta-tool is added by the caller).
 */
export function selectTools(
  catalog: ToolDefinition[],
  query: string,
  cap: number,
  loaded: readonly string[] = [],
): ToolSelection {
  if (catalog.length <= cap) return { offered: catalog, deferred: 0 };
  const room = Math.max(0, cap - 1); // one place is find_tools'
  const loadedTools = catalog.filter((t) => loaded.includes(t.name)).slice(-room);
  const ranked = rankTools(
    query,
    catalog.filter((t) => !loaded.includes(t.name)),
  ).slice(0, room - loadedTools.length);
  const offered = [...loadedTools, ...ranked];
  const reason =
    `${offered.length} of ${catalog.length} tools offered, with find_tools (the cap is ${cap}): ` +
    (loadedTools.length > 0 ? `${loadedTools.length} loaded with find_tools, ` : "") +
    `${ranked.length} most relevant to the conversation; find_tools searches the rest.`;
  return { offered, deferred: catalog.length - offered.length, reason };
}

/** What the conversation is about now: the text of its last few messages, the newest first. */
export function conversationQuery(messages: NeutralMessage[], count = 3): string {
  return messages
    .slice(-count)
    .reverse()
    .flatMap((m) =>
      m.content.flatMap((p) =>
        p.type === "text" ? [p.text] : p.type === "tool_call" ? [p.name] : [],
      ),
    )
    .join(" ");
}
