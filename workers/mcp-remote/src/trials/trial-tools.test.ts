import { beforeAll, describe, expect, it } from "vitest";
import { type Connected, connect, outsideRequests, text } from "../../test/mcp-client";

let mcp: Connected;
beforeAll(async () => {
  mcp = await connect();
});
const call = (name: string, args: Record<string, unknown>) =>
  mcp.client.callTool({ name, arguments: args });

describe("ClinicalTrials.gov", () => {
  it("searches by condition, intervention, status, phase and location", async () => {
    const before = (await outsideRequests()).length;
    const r = await call("trials_search", {
      condition: "breast cancer",
      intervention: "olaparib",
      status: ["RECRUITING", "NOT_YET_RECRUITING"],
      phase: ["PHASE2", "PHASE3"],
      location: "Boston",
      pageSize: 5,
      pageToken: "abc",
    });
    expect(r.structuredContent).toEqual({
      total: 57,
      trials: [
        {
          nctId: "NCT03286842",
          title: "A Study of Olaparib in BRCA-mutated Breast Cancer",
          status: "RECRUITING",
          phases: ["PHASE3"],
          conditions: ["Breast Cancer", "BRCA1 Mutation"],
          interventions: ["Olaparib"],
          locations: ["Dana-Farber Cancer Institute, Boston, United States"],
          summary: "Olaparib versus chemotherapy.",
          url: "https://clinicaltrials.gov/study/NCT03286842",
        },
      ],
      nextPageToken: "NF0g5JGBlPMu",
    });
    expect(text(r)).toMatch(/^57 trials match; 1 shown\./);
    const [asked] = await outsideRequests(before);
    const url = new URL(asked!, "http://x");
    expect(url.pathname).toBe("/ctgov/studies");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      "query.cond": "breast cancer",
      "query.intr": "olaparib",
      "query.locn": "Boston",
      "filter.overallStatus": "RECRUITING,NOT_YET_RECRUITING",
      "filter.advanced": "AREA[Phase](PHASE2 OR PHASE3)",
      pageSize: "5",
      countTotal: "true",
      pageToken: "abc",
    });
  });

  it("fetches one trial by NCT id, and says when there is none", async () => {
    const one = await call("trial_get", { nctId: "NCT03286842" });
    expect(one.structuredContent).toEqual({
      trial: {
        nctId: "NCT03286842",
        title: "A Study of Olaparib in BRCA-mutated Breast Cancer",
        status: "RECRUITING",
        phases: ["PHASE3"],
        conditions: ["Breast Cancer"],
        interventions: ["Olaparib"],
        locations: [],
        summary: null,
        url: "https://clinicaltrials.gov/study/NCT03286842",
      },
    });
    const none = await call("trial_get", { nctId: "NCT00000000" });
    expect(none.isError).toBe(true);
    expect(text(none)).toBe("ClinicalTrials.gov has no study NCT00000000.");
  });

  it("reports empty results and API errors plainly", async () => {
    const empty = await call("trials_search", { condition: "nothingmatches" });
    expect(empty.structuredContent).toEqual({ total: 0, trials: [], nextPageToken: null });
    expect(text(empty)).toMatch(/^No trials match\./);
    for (const [condition, pattern] of [
      ["ratelimited", /ClinicalTrials\.gov is rate limiting us/],
      ["servererror", /ClinicalTrials\.gov answered HTTP 500/],
      ["malformed", /ClinicalTrials\.gov sent a malformed response/],
    ] as const) {
      const r = await call("trials_search", { condition });
      expect(r.isError, condition).toBe(true);
      expect(text(r), condition).toMatch(pattern);
    }
  });

  it("treats blank criteria as none, so a search of spaces is refused without asking", async () => {
    const before = (await outsideRequests()).length;
    const r = await call("trials_search", { condition: "   ", location: " " });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("Give at least one of condition, intervention or location.");
    expect(await outsideRequests(before)).toEqual([]);
  });
});
