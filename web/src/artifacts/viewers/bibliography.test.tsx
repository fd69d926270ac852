import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { artifact } from "../test-artifact";
import {
  doiUrl,
  formatAuthors,
  formatCitation,
  parseBibliography,
  pubmedUrl,
  type Reference,
} from "./bibliography";
import { BibliographyViewer } from "./BibliographyViewer";

const ref: Reference = {
  pmid: "31452104",
  title: "Deep learning for protein structure",
  authors: ["Smith J", "Doe A", "Roe B", "Poe C"],
  journal: "Nature",
  year: 2019,
  doi: "10.1038/s41586-019-1234-5",
  abstract: "We show <b>things</b>.",
};

describe("citations", () => {
  it("name the first three authors, then et al.", () => {
    expect(formatAuthors(["A"])).toBe("A");
    expect(formatAuthors(["A", "B", "C"])).toBe("A, B, C");
    expect(formatAuthors(["A", "B", "C", "D"])).toBe("A, B, C, et al.");
  });
  it("read Authors. Title. Journal. Year.", () => {
    expect(formatCitation(ref)).toBe(
      "Smith J, Doe A, Roe B, et al. Deep learning for protein structure. Nature. 2019.",
    );
    expect(formatCitation({ ...ref, authors: [], journal: null, year: null, title: "Why?" })).toBe(
      "Why?",
    );
  });
});

describe("links of a reference", () => {
  it("go to PubMed only for a numeric pmid", () => {
    expect(pubmedUrl("31452104")).toBe("https://pubmed.ncbi.nlm.nih.gov/31452104/");
    expect(pubmedUrl(" 123 ")).toBe("https://pubmed.ncbi.nlm.nih.gov/123/");
    expect(pubmedUrl("javascript:alert(1)")).toBeNull();
    expect(pubmedUrl("123/../../evil")).toBeNull();
    expect(pubmedUrl(null)).toBeNull();
  });
  it("go to doi.org only for something shaped like a DOI", () => {
    expect(doiUrl("10.1038/s41586-019-1234-5")).toBe("https://doi.org/10.1038/s41586-019-1234-5");
    expect(doiUrl("https://doi.org/10.1000/xyz")).toBe("https://doi.org/10.1000/xyz");
    expect(doiUrl("doi:10.1000/a<b>")).toBe("https://doi.org/10.1000/a%3Cb%3E");
    expect(doiUrl("javascript:alert(1)")).toBeNull();
    expect(doiUrl("javascript:10.1000/x")).toBeNull();
    expect(doiUrl("10.1000")).toBeNull();
    expect(doiUrl(null)).toBeNull();
  });
});

describe("parsing a bibliography", () => {
  it("is lenient about the shapes models write", () => {
    const parsed = parseBibliography(
      JSON.stringify({
        references: [
          { pmid: 123, title: "A", authors: "Smith J, Doe A", journal: "J", year: "2020 Mar" },
          { PMID: "9", title: "B", authors: [{ lastName: "Roe", initials: "B" }], source: "K" },
          { title: "C", authors: "Smith, J.; Doe, A.", year: null, doi: null },
          { pmid: "1" },
          "nonsense",
        ],
      }),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.skipped).toBe(2);
    expect(parsed.references.map((r) => [r.pmid, r.authors, r.journal, r.year])).toEqual([
      ["123", ["Smith J", "Doe A"], "J", 2020],
      ["9", ["Roe B"], "K", null],
      [null, ["Smith, J.", "Doe, A."], null, null],
    ]);
  });
  it("says what is wrong with content it cannot use", () => {
    expect(parseBibliography("{")).toMatchObject({ ok: false });
    expect(parseBibliography('{"a":1}')).toMatchObject({ ok: false });
  });
});

describe("the bibliography viewer", () => {
  const render = (refs: unknown) =>
    renderToStaticMarkup(
      <BibliographyViewer
        artifact={artifact({ type: "application/vnd.bibliography", content: JSON.stringify(refs) })}
        onSaved={() => undefined}
      />,
    );
  it("shows citations with PubMed and DOI links that open apart from the app", () => {
    const html = render([ref]);
    expect(html).toContain("Smith J, Doe A, Roe B, et al. Deep learning");
    expect(html).toContain(
      '<a href="https://pubmed.ncbi.nlm.nih.gov/31452104/" target="_blank" rel="noopener noreferrer">PubMed</a>',
    );
    expect(html).toContain(
      '<a href="https://doi.org/10.1038/s41586-019-1234-5" target="_blank" rel="noopener noreferrer">DOI</a>',
    );
    expect(html).toContain("<details");
    expect(html).toContain("We show &lt;b&gt;things&lt;/b&gt;.");
  });
  it("makes no link from a hostile identifier", () => {
    const html = render([{ ...ref, pmid: "javascript:alert(1)", doi: "javascript:alert(1)" }]);
    expect(html).not.toContain("<a ");
    expect(html).not.toContain("javascript:");
  });
});
