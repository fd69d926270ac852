import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { progress, type ToolExtra } from "../tool-kit";
import { ChartSpec, renderChart } from "./svg";

export function registerChartTools(server: McpServer): void {
  server.registerTool(
    "render_chart",
    {
      title: "Render a chart",
      description:
        "Draws a bar, line, scatter or pie chart from a small JSON spec and returns it as an SVG image.",
      inputSchema: ChartSpec.shape,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (spec, extra) => {
      await progress(extra as unknown as ToolExtra, 0, 1, "drawing");
      const svg = renderChart(ChartSpec.parse(spec));
      await progress(extra as unknown as ToolExtra, 1, 1, "done");
      const data = btoa(String.fromCharCode(...new TextEncoder().encode(svg)));
      return {
        content: [
          { type: "image", data, mimeType: "image/svg+xml" },
          {
            type: "text",
            text: `A ${spec.type} chart${spec.title ? ` titled "${spec.title}"` : ""}.`,
          },
        ],
      };
    },
  );
}
