// A research conversation for the browser tests, through our own MCP worker: step 1 fetches an
// article (a bibliography), step 2 annotates it and draws a chart at once (a knowledge graph and
// an image), step 3 answers through the formatter with a code and a markdown artifact.
import type { LLMock } from "@copilotkit/aimock";

export const RESEARCH_QUESTION = "research olaparib for me";
export const PINNED_FOLLOW_UP = "what did I pin";

export const CODE = "import pandas as pd\nprint(pd.__version__)";
export const NOTES = "# Olaparib notes\n\n| drug | target |\n| --- | --- |\n| olaparib | PARP |";

/** Text a hostile model and hostile tools send: none of it may run or reach another origin. */
export const HOSTILE = [
  "<script>alert('script tag')</script>",
  "<img src=x onerror=\"alert('img onerror')\">",
  "<div onmouseover=\"alert('handler')\">hover me</div>",
  "[click me](javascript:alert('js link'))",
  "[data link](data:text/html,<script>alert('data url')</script>)",
  "![tracker](https://evil.example/pixel.png)",
  "<svg><script>alert('svg script')</script></svg>",
  "<svg onload=\"alert('svg onload')\"></svg>",
  "![local svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)",
  "<a href=\"javascript:alert('anchor')\">anchor</a>",
].join("\n\n");

const formatter = (items: unknown[]) => ({
  name: "response_formatter",
  arguments: JSON.stringify({ thinking: "Fetched, annotated, charted.", conversation: items }),
});

export function addResearchFixtures(mock: LLMock): void {
  mock.on(
    { toolResultContains: "chart titled" },
    {
      toolCalls: [
        formatter([
          { type: "text", content: "Olaparib is a **PARP inhibitor**; see $E = mc^2$ style math." },
          {
            type: "artifact",
            content: "A snippet",
            artifact: { type: "code", title: "Load the data", content: CODE, language: "python" },
          },
          {
            type: "artifact",
            content: "Notes",
            artifact: { type: "text/markdown", title: "Olaparib notes", content: NOTES },
          },
        ]),
      ],
    },
  );
  mock.on(
    { toolResultContains: "2 articles." },
    {
      toolCalls: [
        {
          id: "r2",
          name: "mcp-remote__pubtator_annotations",
          arguments: '{"pmids":["29625052"]}',
        },
        {
          id: "r3",
          name: "mcp-remote__render_chart",
          arguments: JSON.stringify({
            type: "bar",
            title: "Trials per phase",
            labels: ["I", "II", "III"],
            series: [{ name: "trials", values: [4, 7, 2] }],
          }),
        },
      ],
    },
  );
  mock.onMessage(new RegExp(RESEARCH_QUESTION), {
    toolCalls: [
      {
        id: "r1",
        name: "mcp-remote__pubmed_fetch",
        arguments: '{"pmids":["31452104","29625052"]}',
      },
    ],
  });
  mock.onMessage(new RegExp(PINNED_FOLLOW_UP), { content: "You pinned the olaparib notes." });

  // Hostile output: in the model's text and in an artifact a tool result carried.
  mock.on(
    { toolResultContains: "Merged" },
    {
      toolCalls: [
        formatter([
          { type: "text", content: HOSTILE },
          {
            type: "artifact",
            content: "hostile",
            artifact: { type: "text/markdown", title: "Hostile notes", content: HOSTILE },
          },
          {
            type: "artifact",
            content: "hostile code",
            artifact: { type: "code", title: "Hostile code", content: HOSTILE, language: "html" },
          },
        ]),
      ],
    },
  );
  mock.onMessage(/hostile please/, {
    toolCalls: [
      {
        id: "h1",
        name: "mcp-remote__graph_merge",
        arguments: JSON.stringify({
          nodes: [
            {
              id: "x1",
              label: "<img src=x onerror=alert('node')>",
              type: "<script>alert(1)</script>",
            },
            { id: "x2", label: "javascript:alert('label')", type: "gene" },
          ],
          links: [{ source: "x1", target: "x2", type: "<b onclick=alert(1)>rel</b>" }],
        }),
      },
    ],
  });
}
