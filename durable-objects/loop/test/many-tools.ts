// A catalog of 300 tools across five servers, for the tool-cap tests and the bench: generated
// definitions with realistic names and descriptions, a few of them the ones a test looks for.
import type { CatalogTool } from "../types";

const TOPICS = [
  ["pubmed", "Search PubMed articles by keywords, authors and MeSH terms"],
  ["trials", "Find clinical trials by condition, phase and recruiting status"],
  ["weather", "Forecast the weather for a city and number of days"],
  ["calendar", "Create and list calendar events and meetings"],
  ["github", "List issues and pull requests of a repository"],
  ["sql", "Run a read-only SQL query on the analytics database"],
  ["chart", "Render a bar, line or scatter chart to a PNG image"],
  ["files", "Read, list and search files in the shared drive"],
  ["email", "Send and search email messages in the mailbox"],
  ["crm", "Look up customers, deals and contacts in the CRM"],
] as const;
const VERBS = ["get", "list", "search", "create", "update", "delete"];

export function manyTools(count = 300): CatalogTool[] {
  return Array.from({ length: count }, (_, i) => {
    const [topic, about] = TOPICS[i % TOPICS.length]!;
    const verb = VERBS[Math.floor(i / TOPICS.length) % VERBS.length]!;
    return {
      server: `server${i % 5}`,
      tool: `${verb}_${topic}_${i}`,
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)}: ${about} (variant ${i}).`,
      inputSchema: {
        type: "object",
        properties: { query: { type: "string", description: `What to ${verb}` } },
      },
    };
  });
}
