// The chart tool: a small JSON spec in, an MCP image out (PNG drawn here, or SVG).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { toolContext } from "../tool-context";
import { refused } from "../tool-kit";
import { layoutChart } from "./layout";
import { encodePng } from "./png";
import { rasterize } from "./raster";
import { ChartSpec, chartProblem } from "./spec";
import { toSvg } from "./svg";

function base64(bytes: Uint8Array): string {
  let binary = "";
  // Chunked: spreading a large array into fromCharCode overflows the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function registerChartTools(server: McpServer): void {
  server.registerTool(
    "render_chart",
    {
      title: "Render a chart",
      description:
        "Draws a bar, line, scatter or pie chart from a small JSON spec and returns it as an image (PNG by default, or SVG).",
      inputSchema: ChartSpec.shape,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async (args, extra) => {
      const ctx = toolContext(extra, "charts");
      const spec = ChartSpec.parse(args);
      const problem = chartProblem(spec);
      if (problem) return refused(problem);
      await ctx.progress(0, 3, "laying out");
      const layout = layoutChart(spec);
      let image: { data: string; mimeType: string };
      if (spec.format === "svg") {
        image = {
          data: base64(new TextEncoder().encode(toSvg(layout))),
          mimeType: "image/svg+xml",
        };
      } else {
        await ctx.progress(1, 3, "drawing");
        const pixels = rasterize(layout);
        await ctx.progress(2, 3, "compressing");
        image = { data: base64(await encodePng(pixels)), mimeType: "image/png" };
      }
      await ctx.progress(3, 3, "done");
      return {
        content: [
          { type: "image", ...image },
          {
            type: "text",
            text: `A ${spec.type} chart${spec.title ? ` titled "${spec.title}"` : ""} (${layout.width}×${layout.height} ${spec.format.toUpperCase()}).`,
          },
        ],
      };
    },
  );
}
