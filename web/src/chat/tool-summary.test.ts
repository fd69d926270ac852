import { describe, expect, it } from "vitest";
import { parsePartialJson } from "./partial-json";
import { errorSentence, toolCallLine } from "./tool-summary";

const done = (summary: string) => toolCallLine({ status: "done", summary });

describe("toolCallLine", () => {
  it("names the titles of a bibliography cut off mid-way, without a half-written entry or a false count", () => {
    const cut =
      '{"bibliography":[{"pmid":"31452104","title":"Olaparib in prostate cancer","year":2020},{"pmid":"29625052","title":"Olaparib tablets as maintenance therap…';
    expect(done(cut)).toBe("bibliography (1+): “Olaparib in prostate cancer”, …");
  });

  it("counts a whole list and says how many artifacts the call made", () => {
    expect(done('[{"name":"BRCA1"},{"name":"PARP1"},{"name":"olaparib"}] (2 artifacts)')).toBe(
      "3 items: “BRCA1”, “PARP1”, … · 2 artifacts",
    );
    expect(done('{"studies":[],"nextPageToken":null}')).toBe("No studies.");
    expect(done('{"nctId":"NCT01844986","phase":"3"} (1 artifact)')).toBe(
      "NCT01844986 · 1 artifact",
    );
  });

  it("leads with the tool's own sentence and adds the names its JSON holds", () => {
    expect(
      done(
        '2 articles. {"bibliography":[{"pmid":"31452104","title":"Niraparib monotherapy (QUADRA)","authors":["Mo… (1 artifact)',
      ),
    ).toBe("2 articles · 1 artifact");
    expect(
      done(
        '4 entities and 4 links. {"nodes":[{"id":"PMID:1","label":"PubMed 1"},{"id":"MESH:C5","label":"olaparib"},{"id":"x"',
      ),
    ).toBe("4 entities and 4 links: “PubMed 1”, “olaparib”, …");
  });

  it("keeps plain text results as one short line", () => {
    expect(done("Found 3 articles\n  about olaparib.")).toBe("Found 3 articles about olaparib.");
    expect(done("")).toBe("Finished with no output.");
    expect(done('reused the earlier result: {"title":"Chart of trials"}')).toBe(
      "Reused an earlier result: Chart of trials",
    );
  });

  it("reads errors and interruptions as sentences", () => {
    expect(toolCallLine({ status: "failed", summary: "unknown tool pubmed_serch" })).toBe(
      "Failed: unknown tool pubmed_serch.",
    );
    expect(toolCallLine({ status: "failed", summary: "interrupted" })).toBe(
      "Interrupted before it finished.",
    );
    expect(toolCallLine({ status: "started" })).toBe("Running…");
    expect(errorSentence("")).toBe("Failed without saying why.");
  });
});

describe("parsePartialJson", () => {
  it("parses whole JSON as complete and repairs a cut-off object", () => {
    expect(parsePartialJson('{"a":[1,2]}')).toEqual({ value: { a: [1, 2] }, complete: true });
    expect(parsePartialJson('{"a":[1,2],"b":{"c":"he')).toEqual({
      value: { a: [1, 2], b: { c: "he" } },
      complete: false,
    });
    expect(parsePartialJson('{"a":1,"b":')).toEqual({ value: { a: 1, b: null }, complete: false });
    expect(parsePartialJson("not json")).toBeNull();
  });
});
