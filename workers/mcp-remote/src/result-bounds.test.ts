import { beforeAll, describe, expect, it } from "vitest";
import { type Connected, connect, text, TOKEN, workerWith } from "../test/mcp-client";
import { MAX_RESULT_CHARS } from "./result-bounds";

// The outside answers here are megabytes (test/fixture-oversized.ts): the byte bound on reading
// is raised so that only the bounds on results stand between them and the model.
let mcp: Connected;
beforeAll(async () => {
  mcp = await connect(TOKEN, workerWith({ OUTSIDE_MAX_BYTES: String(16 * 1024 * 1024) }));
});
const call = (name: string, args: Record<string, unknown>) =>
  mcp.client.callTool({ name, arguments: args });
const size = (r: Record<string, unknown>) => JSON.stringify(r).length;

interface Article {
  pmid: string;
  title: string;
  authors: string[];
  journal: string;
  abstract: string | null;
}

describe("results from outside services are bounded", () => {
  it("pubmed_search returns at most maxResults ids, whatever NCBI sends", async () => {
    const r = await call("pubmed_search", { query: "manyids", maxResults: 3 });
    expect(r.structuredContent).toEqual({
      total: 20000,
      pmids: ["10000000", "10000001", "10000002"],
    });
    expect(size(r)).toBeLessThan(1_000);
    // The answer of the report: 200,001 ids and no count, once a 2.35 MB tool result.
    const huge = await call("pubmed_search", { query: "hugeresponse", maxResults: 5 });
    expect(huge.structuredContent).toEqual({ total: 200001, pmids: ["1", "1", "1", "1", "1"] });
    expect(size(huge)).toBeLessThan(1_000);
  });

  it("pubmed_fetch returns only the articles asked for, with bounded fields", async () => {
    const r = await call("pubmed_fetch", { pmids: ["88880001"] });
    const bib = (r.structuredContent as { bibliography: Article[] }).bibliography;
    expect(bib.map((a) => a.pmid)).toEqual(["88880001"]);
    const [a] = bib;
    expect(a!.title.length).toBeLessThanOrEqual(1_000);
    expect(a!.journal.length).toBeLessThanOrEqual(300);
    expect(a!.authors).toHaveLength(50);
    expect(a!.abstract!.length).toBeLessThanOrEqual(10_000);
    expect(a!.abstract).toMatch(/^Abstract text\. .*…$/);
  });

  it("pubmed_fetch of many large articles stays under the size limit and says what it left out", async () => {
    const pmids = Array.from({ length: 50 }, (_, i) => String(88_880_001 + i));
    const r = await call("pubmed_fetch", { pmids });
    const bib = (r.structuredContent as { bibliography: Article[] }).bibliography;
    expect(JSON.stringify(r.structuredContent).length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(bib.length).toBeGreaterThan(0);
    expect(bib.length).toBeLessThan(50);
    expect(bib.every((a) => pmids.includes(a.pmid))).toBe(true);
    expect(text(r)).toMatch(new RegExp(`${50 - bib.length} more articles left out`));
  });

  it("pubtator_annotations keeps the asked article, its most mentioned entities, under the limit", async () => {
    const r = await call("pubtator_annotations", { pmids: ["7777777"] });
    const g = r.structuredContent as {
      nodes: Array<{ id: string; label: string }>;
      links: Array<{ source: string; target: string }>;
    };
    expect(JSON.stringify(g).length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(g.nodes[0]!.id).toBe("PMID:7777777");
    expect(g.nodes.some((n) => n.id.includes("1234567"))).toBe(false);
    expect(g.nodes.every((n) => n.label.length <= 200)).toBe(true);
    const ids = new Set(g.nodes.map((n) => n.id));
    expect(g.links.every((l) => ids.has(l.source) && ids.has(l.target))).toBe(true);
    expect(text(r)).toMatch(/more entities and links left out/);
  });

  it("trials_search returns pageSize trials at most, with bounded fields, under the limit", async () => {
    const five = await call("trials_search", { condition: "manytrials", pageSize: 5 });
    expect(five.isError, text(five)).toBeFalsy();
    const r5 = five.structuredContent as {
      trials: Array<{ title: string; summary: string; conditions: string[]; locations: string[] }>;
      nextPageToken: string | null;
    };
    expect(r5.trials).toHaveLength(5);
    expect(r5.trials[0]!.summary.length).toBeLessThanOrEqual(4_000);
    expect(r5.trials[0]!.title.length).toBeLessThanOrEqual(500);
    expect(r5.trials[0]!.conditions).toHaveLength(20);
    expect(r5.trials[0]!.locations).toHaveLength(10);
    // A 500-character token could not be sent back (pageToken takes 200 at most).
    expect(r5.nextPageToken).toBeNull();
    const fifty = await call("trials_search", { condition: "manytrials", pageSize: 50 });
    expect(JSON.stringify(fifty.structuredContent).length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
  });

  it("trial_get bounds one oversized study", async () => {
    const r = await call("trial_get", { nctId: "NCT77777777" });
    expect(r.isError).toBeFalsy();
    expect(size(r)).toBeLessThan(30_000);
  });
});
