// Outside answers far larger than what was asked for, generated rather than recorded: more ids
// than retmax, articles and annotations for PMIDs nobody asked about, fields of 50,000
// characters. Inputs: a PubMed query containing "manyids" (or "longerror", for an ERROR of
// 50,000 characters), PMIDs starting with 8888 (PubMed) or
// 7777 (PubTator), a trial search for "manytrials", trial NCT77777777.

const long = (text: string, size: number) =>
  text.repeat(Math.ceil(size / text.length)).slice(0, size);
const idsOf = (url: URL) =>
  (url.searchParams.get("id") ?? url.searchParams.get("pmids") ?? "").split(",");

function study(nctId: string) {
  return {
    protocolSection: {
      identificationModule: { nctId, briefTitle: long("A very long title. ", 5_000) },
      statusModule: { overallStatus: "RECRUITING" },
      designModule: { phases: ["PHASE2"] },
      conditionsModule: { conditions: Array.from({ length: 300 }, (_, i) => `Condition ${i}`) },
      armsInterventionsModule: {
        interventions: Array.from({ length: 300 }, (_, i) => ({ name: `Drug ${i}` })),
      },
      descriptionModule: { briefSummary: long("An endless summary. ", 50_000) },
      contactsLocationsModule: {
        locations: Array.from({ length: 500 }, (_, i) => ({
          facility: `Site ${i}`,
          city: "Boston",
        })),
      },
    },
  };
}

/** A generated body for `url`, or null when it is not one of the oversized inputs. */
export function oversized(url: URL): string | null {
  const path = url.pathname;
  if (path.endsWith("/esearch.fcgi") && url.searchParams.get("term")?.includes("manyids"))
    return JSON.stringify({
      esearchresult: {
        count: "20000",
        idlist: Array.from({ length: 20_000 }, (_, i) => String(10_000_000 + i)),
      },
    });
  if (path.endsWith("/esearch.fcgi") && url.searchParams.get("term")?.includes("longerror"))
    return JSON.stringify({
      esearchresult: { ERROR: long("Term not understood near the end of it. ", 50_000) },
    });
  const ids = idsOf(url);
  if (path.endsWith("/esummary.fcgi") && ids[0]?.startsWith("8888")) {
    // Every asked article, and a hundred nobody asked for.
    const uids = [...ids, ...Array.from({ length: 100 }, (_, i) => String(99_000_000 + i))];
    const result: Record<string, unknown> = { uids };
    for (const uid of uids)
      result[uid] = {
        uid,
        title: long("Title words. ", 3_000),
        pubdate: "2020",
        fulljournalname: long("Journal. ", 1_000),
        authors: Array.from({ length: 300 }, (_, i) => ({ name: `Author ${i}` })),
        articleids: [{ idtype: "doi", value: `10.1000/${uid}` }],
      };
    return JSON.stringify({ result });
  }
  if (path.endsWith("/efetch.fcgi") && ids[0]?.startsWith("8888"))
    return `<PubmedArticleSet>${ids
      .map(
        (id) =>
          `<PubmedArticle><PMID>${id}</PMID><AbstractText>${long("Abstract text. ", 50_000)}</AbstractText></PubmedArticle>`,
      )
      .join("")}</PubmedArticleSet>`;
  if (path.endsWith("/publications/export/biocjson") && ids[0]?.startsWith("7777")) {
    const doc = (id: string) => ({
      id,
      passages: [
        {
          annotations: Array.from({ length: 3_000 }, (_, i) => ({
            text: `entity ${i}`,
            infons: { identifier: `Gene:${id}:${i}`, type: "Gene", name: long(`Gene ${i} `, 300) },
          })),
        },
      ],
      relations: Array.from({ length: 3_000 }, (_, i) => ({
        infons: {
          type: "Association",
          role1: { identifier: `Gene:${id}:${i}` },
          role2: { identifier: `Gene:${id}:${(i + 1) % 3_000}` },
        },
      })),
    });
    return JSON.stringify({ PubTator3: [...ids.map(doc), doc("1234567")] });
  }
  if (path.endsWith("/studies") && url.searchParams.get("query.cond")?.includes("manytrials"))
    return JSON.stringify({
      totalCount: 120,
      studies: Array.from({ length: 120 }, (_, i) => study(`NCT${String(70_000_000 + i)}`)),
      nextPageToken: long("t", 500),
    });
  if (path.endsWith("/studies/NCT77777777")) return JSON.stringify(study("NCT77777777"));
  return null;
}
