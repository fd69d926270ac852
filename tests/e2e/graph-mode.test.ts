import { afterAll, beforeAll, expect, it } from "vitest";
import { applyEvent, emptyTranscript } from "../../durable-objects/protocol/transcript";
import { isServerEvent, ServerFrame, type ServerEvent } from "../../durable-objects/protocol/wire";
import { type Stack, startStack } from "./stack";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack((mock) => {
    mock.on(
      { toolResultContains: "articles match" },
      {
        toolCalls: [
          {
            id: "g2",
            name: "mcp-remote__pubtator_annotations",
            arguments: '{"pmids":["29625052"]}',
          },
        ],
      },
    );
    mock.on(
      { toolResultContains: "entities and" },
      {
        toolCalls: [
          {
            id: "g3",
            name: "mcp-remote__graph_merge",
            arguments: JSON.stringify({
              nodes: [
                { id: "MESH:C531550", label: "olaparib", type: "chemical" },
                { id: "MESH:D001943", label: "Breast Neoplasms", type: "disease" },
              ],
              links: [{ source: "MESH:C531550", target: "MESH:D001943", type: "treat" }],
            }),
          },
        ],
      },
    );
    mock.on(
      { toolResultContains: "Merged 2 nodes" },
      { content: "I built a graph of olaparib and breast cancer." },
    );
    mock.onMessage(/build a graph about olaparib/, {
      toolCalls: [
        {
          id: "g1",
          name: "mcp-remote__pubmed_search",
          arguments: '{"query":"olaparib brca","maxResults":2}',
        },
      ],
    });
  });
});
afterAll(async () => {
  await stack?.stop();
});

const auth = () => ({ authorization: `Bearer ${stack.token}` });

it("a graph-mode conversation builds a knowledge graph from a literature search, through our MCP worker", async () => {
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { ...auth(), "content-type": "application/json" },
    body: JSON.stringify({ mode: "graph", provider: "anthropic" }),
  });
  const { id } = (await created.json()) as { id: string };
  const ws = new WebSocket(`${stack.url.replace("http", "ws")}/api/conversations/${id}/ws`, {
    headers: auth(),
  } as never);
  const events: ServerEvent[] = [];
  const done = new Promise<void>((resolve) =>
    ws.addEventListener("message", (m) => {
      const f = ServerFrame.parse(JSON.parse(String(m.data)));
      if (isServerEvent(f)) events.push(f);
      if (f.type === "turn_ended" || f.type === "turn_failed") resolve();
    }),
  );
  await new Promise((r) => ws.addEventListener("open", r));
  ws.send(JSON.stringify({ type: "resume", lastSeq: 0 }));
  ws.send(
    JSON.stringify({
      type: "send",
      clientMessageId: "graph-1",
      text: "build a graph about olaparib",
    }),
  );
  await done;
  ws.close();

  const calls = events.flatMap((e) => (e.type === "tool_call" ? [`${e.server}:${e.tool}`] : []));
  expect(calls).toEqual([
    "mcp-remote:pubmed_search",
    "mcp-remote:pubtator_annotations",
    "mcp-remote:graph_merge",
  ]);
  expect(
    events
      .filter((e) => e.type === "tool_result")
      .every((e) => e.type === "tool_result" && !e.isError),
  ).toBe(true);
  const answer = events.reduce(applyEvent, emptyTranscript()).messages[1]!;
  expect(answer.content.filter((p) => p.type === "text")).toEqual([
    { type: "text", text: "I built a graph of olaparib and breast cancer." },
  ]);
  const graphPart = answer.content.find(
    (p) => p.type === "artifact" && p.artifactType === "application/vnd.knowledge-graph",
  );
  expect(graphPart).toBeDefined();
  const artifact = (await (
    await fetch(
      `${stack.url}/api/artifacts/${graphPart!.type === "artifact" ? graphPart!.artifactId : ""}`,
      { headers: auth() },
    )
  ).json()) as { content: string };
  const graph = JSON.parse(artifact.content) as {
    nodes: Array<{ id: string }>;
    links: Array<{ type: string }>;
  };
  expect(graph.nodes.map((n) => n.id)).toEqual(
    expect.arrayContaining(["MESH:C531550", "MESH:D001943", "672", "PMID:29625052"]),
  );
  expect(graph.links.map((l) => l.type)).toContain("treat");
});
