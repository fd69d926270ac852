// Resources a client can attach to a message: one PubMed article or one clinical trial by id
// (resource templates, read live from the outside service), and a short PubMed query guide.
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import type { McpEnv } from "../env";
import { type Article, articleDetails } from "../literature/pubmed";
import { outside, OutsideApiError } from "../outside";
import { toolContext } from "../tool-context";
import { getTrial, type Trial } from "../trials/clinicaltrials";
import { PUBMED_QUERY_GUIDE } from "./pubmed-query-guide";

/** MCP's code for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

const ARTICLE_TEMPLATE = "pubmed://article/{pmid}";
const TRIAL_TEMPLATE = "clinicaltrials://study/{nctId}";
const GUIDE_URI = "guide://pubmed-query-syntax";
const TEMPLATES = [ARTICLE_TEMPLATE, TRIAL_TEMPLATE].map((t) => new UriTemplate(t));

/** Whether `uri` names one of our resources (a template's ids are checked when it is read). */
export const isOurResource = (uri: string): boolean =>
  uri === GUIDE_URI || TEMPLATES.some((t) => t.match(uri) !== null);

const markdown = (uri: URL, text: string): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: "text/markdown", text }],
});

function articleText(a: Article): string {
  const cite = [a.journal, a.year, a.doi ? `doi:${a.doi}` : null, `PMID ${a.pmid}`]
    .filter(Boolean)
    .join(". ");
  return [
    `# ${a.title}`,
    "",
    a.authors.join(", "),
    "",
    `${cite}. https://pubmed.ncbi.nlm.nih.gov/${a.pmid}/`,
    "",
    "## Abstract",
    "",
    a.abstract ?? "(PubMed has no abstract for this article.)",
  ].join("\n");
}

function trialText(t: Trial): string {
  const line = (label: string, values: string[]) =>
    values.length ? [`- ${label}: ${values.join("; ")}`] : [];
  return [
    `# ${t.title}`,
    "",
    `${t.nctId}, ${t.status ?? "status unknown"}. ${t.url}`,
    "",
    ...line("Phases", t.phases),
    ...line("Conditions", t.conditions),
    ...line("Interventions", t.interventions),
    ...line("Locations", t.locations),
    "",
    t.summary ?? "(No summary.)",
  ].join("\n");
}

/** Outside failures as protocol errors that say what happened and whether to retry. */
async function reading<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof OutsideApiError)
      throw new McpError(ErrorCode.InternalError, err.message, {
        code: err.code,
        service: err.service,
        retryable: err.retryable,
      });
    throw err;
  }
}

export function registerResearchResources(server: McpServer, env: McpEnv): void {
  server.registerResource(
    "pubmed_article",
    new ResourceTemplate(ARTICLE_TEMPLATE, { list: undefined }),
    {
      title: "PubMed article",
      description: "Title, authors, journal, year, DOI and abstract of one article, by PMID.",
      mimeType: "text/markdown",
    },
    async (uri, { pmid }, extra) => {
      const id = String(pmid);
      if (!/^\d{1,9}$/.test(id))
        throw new McpError(
          ErrorCode.InvalidParams,
          `A PMID is a number such as 31452104, not "${id}".`,
        );
      const [article] = await reading(() =>
        articleDetails(env, outside(env, toolContext(extra, "pubmed")), [id]),
      );
      if (!article)
        throw new McpError(RESOURCE_NOT_FOUND, `PubMed has no article ${id}.`, { uri: uri.href });
      return markdown(uri, articleText(article));
    },
  );

  server.registerResource(
    "clinical_trial",
    new ResourceTemplate(TRIAL_TEMPLATE, { list: undefined }),
    {
      title: "Clinical trial",
      description:
        "One ClinicalTrials.gov study, by NCT id: status, phases, conditions, interventions, sites, summary.",
      mimeType: "text/markdown",
    },
    async (uri, { nctId }, extra) => {
      const id = String(nctId);
      if (!/^NCT\d{8}$/.test(id))
        throw new McpError(
          ErrorCode.InvalidParams,
          `An NCT id looks like NCT01234567, not "${id}".`,
        );
      const trial = await reading(async () => {
        try {
          return await getTrial(env, outside(env, toolContext(extra, "clinicaltrials")), id);
        } catch (err) {
          if (err instanceof OutsideApiError && err.status === 404)
            throw new McpError(RESOURCE_NOT_FOUND, `ClinicalTrials.gov has no study ${id}.`, {
              uri: uri.href,
            });
          throw err;
        }
      });
      return markdown(uri, trialText(trial));
    },
  );

  server.registerResource(
    "pubmed_query_guide",
    GUIDE_URI,
    {
      title: "PubMed query syntax",
      description:
        "Field tags, Boolean operators, phrases and date ranges for pubmed_search queries.",
      mimeType: "text/markdown",
    },
    (uri) => markdown(uri, PUBMED_QUERY_GUIDE),
  );
}
