import { beforeAll, describe, expect, it } from "vitest";
import { type Connected, connect, outsideRequests, text } from "../../test/mcp-client";
import { retryAfterSeconds } from "../outside";

let mcp: Connected;
beforeAll(async () => {
  mcp = await connect();
});
const call = (name: string, args: Record<string, unknown>) =>
  mcp.client.callTool({ name, arguments: args });

describe("PubMed", () => {
  it("searches with count, date range and sort, as NCBI asks to be called", async () => {
    const before = (await outsideRequests()).length;
    const r = await call("pubmed_search", {
      query: "brca1 parp inhibitor",
      maxResults: 2,
      minDate: "2018",
      maxDate: "2020/12",
      sort: "pub_date",
    });
    expect(r.structuredContent).toEqual({ total: 1843, pmids: ["31452104", "29625052"] });
    expect(text(r)).toMatch(/^1843 articles match; the first 2: 31452104, 29625052\./);
    const [asked] = await outsideRequests(before);
    const q = new URL(asked!, "http://x").searchParams;
    expect(Object.fromEntries(q)).toMatchObject({
      db: "pubmed",
      term: "brca1 parp inhibitor",
      retmode: "json",
      retmax: "2",
      sort: "pub_date",
      datetype: "pdat",
      mindate: "2018",
      maxdate: "2020/12",
      tool: "thinking-chat",
    });
  });

  it("fetches details as a bibliography, with progress and log lines", async () => {
    const progress: Array<[number, number | undefined]> = [];
    const logsBefore = mcp.logs.length;
    const details = await mcp.client.callTool(
      { name: "pubmed_fetch", arguments: { pmids: ["31452104", "29625052"] } },
      undefined,
      { onprogress: (p) => progress.push([p.progress, p.total]) },
    );
    const bib = (details.structuredContent as { bibliography: Array<Record<string, unknown>> })
      .bibliography;
    expect(bib[0]).toEqual({
      pmid: "31452104",
      title:
        "Niraparib monotherapy for late-line treatment of ovarian cancer (QUADRA): a multicentre, open-label, single-arm, phase 2 trial",
      authors: ["Moore KN", "Secord AA"],
      journal: "The Lancet. Oncology",
      year: 2019,
      doi: "10.1016/S1470-2045(19)30029-4",
      abstract:
        "BACKGROUND: Niraparib is a poly(ADP-ribose) polymerase (PARP) inhibitor.\nFINDINGS: Niraparib showed clinically relevant activity in patients with BRCA-mutated disease.",
    });
    expect(bib[1]).toMatchObject({
      pmid: "29625052",
      year: 2018,
      doi: "10.1056/NEJMoa1706450",
      abstract: "Olaparib monotherapy provided a significant benefit over standard therapy.",
    });
    expect(progress).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    const lines = mcp.logs.slice(logsBefore);
    expect(lines.map((l) => l.logger)).toEqual(["pubmed", "pubmed"]);
    expect(lines[0]).toMatchObject({
      level: "info",
      data: { message: expect.stringMatching(/esummary\.fcgi/) },
    });
    expect(JSON.stringify(lines)).not.toContain("?");
  });

  it("reports empty results and queries NCBI could not run", async () => {
    const empty = await call("pubmed_search", { query: "nothingmatchesthisquery" });
    expect(empty.isError).toBeFalsy();
    expect(empty.structuredContent).toEqual({ total: 0, pmids: [] });
    expect(text(empty)).toMatch(/^No articles match\./);
    const bad = await call("pubmed_search", { query: "(brca1 AND badsyntax" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/could not run the query: Invalid query/);
    // NCBI's reason is passed on, but bounded like any other outside text.
    const long = await call("pubmed_search", { query: "brca1 longerror" });
    expect(long.isError).toBe(true);
    expect(text(long)).toMatch(/^PubMed could not run the query: Term not understood .*…/);
    expect(text(long).length).toBeLessThan(600);
  });

  it("refuses a blank query and a backwards date span without asking PubMed", async () => {
    const before = (await outsideRequests()).length;
    const blank = await call("pubmed_search", { query: "   " });
    expect(blank.isError).toBe(true);
    expect(text(blank)).toMatch(/the query is blank/);
    const backwards = await call("pubmed_search", {
      query: "brca1",
      minDate: "2024",
      maxDate: "2018/06",
    });
    expect(backwards.isError).toBe(true);
    expect(text(backwards)).toBe(
      "minDate 2024 is after maxDate 2018/06; the span must run forward.",
    );
    expect(await outsideRequests(before)).toEqual([]);
    // One year, written both ways, is a span that runs forward.
    const sameYear = await call("pubmed_search", {
      query: "brca1",
      minDate: "2020",
      maxDate: "2020/05",
    });
    expect(sameYear.isError).toBeFalsy();
  });

  it("turns rate limits, server errors, malformed and oversized bodies and timeouts into plain isError results", async () => {
    const cases: Array<[string, RegExp, string]> = [
      [
        "ratelimited",
        /PubMed is rate limiting us; try again in 2 s\. Trying again later may work\./,
        "rate_limited",
      ],
      ["servererror", /PubMed answered HTTP 500\. Trying again later may work\./, "http_error"],
      ["malformed", /PubMed sent a malformed response \(not JSON\)\./, "malformed"],
      ["hugeresponse", /PubMed sent more than 262144 bytes\./, "too_large"],
      ["slowresponse", /PubMed did not answer within 1 s\./, "timeout"],
    ];
    for (const [query, pattern, code] of cases) {
      const r = await call("pubmed_search", { query });
      expect(r.isError, query).toBe(true);
      expect(text(r), query).toMatch(pattern);
      expect(r._meta, query).toMatchObject({ error: { code, service: "PubMed" } });
    }
  });

  it("reads a Retry-After given as a date as the seconds left, and ignores one it cannot read", async () => {
    const r = await call("pubmed_search", { query: "ratelimitdate" });
    expect(r.isError).toBe(true);
    const wait = Number(/try again in (\d+) s\./.exec(text(r))?.[1]);
    expect(wait).toBeGreaterThan(100);
    expect(wait).toBeLessThanOrEqual(120);
    expect(retryAfterSeconds("soon")).toBeNull();
    expect(retryAfterSeconds(" 7 ")).toBe(7);
  });

  it("logs a warning for a call that got no answer, as for one answered with an error", async () => {
    const logsBefore = mcp.logs.length;
    await call("pubmed_search", { query: "slowresponse" });
    const lines = mcp.logs.slice(logsBefore);
    expect(lines).toEqual([
      {
        level: "warning",
        logger: "pubmed",
        data: {
          message: expect.stringMatching(
            /^PubMed: no answer \(timeout\) from http:\/\/[^?]*esearch\.fcgi$/,
          ),
          ms: expect.any(Number),
        },
      },
    ]);
  });
});

describe("PubTator", () => {
  it("turns annotations and relations into a knowledge graph", async () => {
    const r = await call("pubtator_annotations", { pmids: ["29625052"] });
    const g = r.structuredContent as {
      nodes: Array<{
        id: string;
        label: string;
        type: string;
        properties: Record<string, unknown>;
      }>;
      links: Array<{
        source: string;
        target: string;
        type: string;
        properties: Record<string, unknown>;
      }>;
    };
    expect(g.nodes.map((n) => n.id).sort()).toEqual([
      "672",
      "MESH:C531550",
      "MESH:D001943",
      "PMID:29625052",
    ]);
    expect(g.nodes.find((n) => n.id === "MESH:C531550")).toEqual({
      id: "MESH:C531550",
      label: "olaparib",
      type: "chemical",
      properties: { mentions: 2 },
    });
    expect(g.links).toContainEqual({
      source: "MESH:C531550",
      target: "MESH:D001943",
      type: "treat",
      properties: { pmid: "29625052", score: 0.98 },
    });
    expect(g.links.filter((l) => l.type === "mentions")).toHaveLength(3);
    expect(text(r)).toMatch(/^4 entities and 4 links\./);
  });

  it("returns an empty graph for articles without annotations, and plain errors", async () => {
    const empty = await call("pubtator_annotations", { pmids: ["2222222"] });
    expect(empty.structuredContent).toEqual({ nodes: [], links: [] });
    for (const [pmid, pattern] of [
      ["4290000", /PubTator is rate limiting us/],
      ["5000000", /PubTator answered HTTP 500/],
      ["1111111", /PubTator sent a malformed response/],
    ] as const) {
      const r = await call("pubtator_annotations", { pmids: [pmid] });
      expect(r.isError, pmid).toBe(true);
      expect(text(r), pmid).toMatch(pattern);
    }
  });
});
