import { beforeAll, describe, expect, it } from "vitest";
import { type Connected, connect, text } from "../../test/mcp-client";
import { decodePng } from "../../test/png-decode";
import { COLORS, HEIGHT, layoutChart, WIDTH } from "./layout";
import { ChartSpec } from "./spec";

let mcp: Connected;
beforeAll(async () => {
  mcp = await connect();
});

const image = (r: Record<string, unknown>) =>
  (r.content as Array<{ type: string; data?: string; mimeType?: string }>).find(
    (c) => c.type === "image",
  )!;
const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

describe("render_chart", () => {
  it("draws a bar chart as a PNG whose bars, background and title are where the layout says", async () => {
    const spec = {
      type: "bar",
      title: "Responses by arm",
      labels: ["control", "olaparib"],
      series: [{ name: "responders", values: [12, 30] }],
    } as const;
    const progress: number[] = [];
    const r = await mcp.client.callTool({ name: "render_chart", arguments: spec }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(progress).toEqual([0, 1, 2, 3]);
    const img = image(r);
    expect(img.mimeType).toBe("image/png");
    const png = await decodePng(bytes(img.data!));
    expect([png.width, png.height]).toEqual([WIDTH, HEIGHT]);
    expect(png.pixel(2, 2)).toEqual([255, 255, 255]);
    const bars = layoutChart(ChartSpec.parse(spec)).shapes.filter(
      (s) => s.kind === "rect" && s.fill === COLORS[0] && s.h > 20,
    );
    expect(bars).toHaveLength(2);
    for (const bar of bars) {
      if (bar.kind !== "rect") continue;
      expect(png.pixel(Math.round(bar.x + bar.w / 2), Math.round(bar.y + bar.h / 2))).toEqual(
        rgb(COLORS[0]!),
      );
    }
    // The taller bar is the second one.
    const [a, b] = bars as Array<Extract<(typeof bars)[number], { kind: "rect" }>>;
    expect(b!.h).toBeGreaterThan(a!.h * 2);
    // The title is drawn: some dark pixels in its band, centred.
    let ink = 0;
    for (let x = WIDTH / 2 - 80; x < WIDTH / 2 + 80; x++)
      for (let y = 14; y < 30; y++) if (png.pixel(x, y)[0] < 128) ink++;
    expect(ink).toBeGreaterThan(50);
    expect(text(r)).toMatch(/A bar chart titled "Responses by arm" \(640×400 PNG\)/);
  });

  it("draws line, scatter and pie charts", async () => {
    const pie = await mcp.client.callTool({
      name: "render_chart",
      arguments: { type: "pie", labels: ["a", "b"], series: [{ values: [3, 1] }] },
    });
    const png = await decodePng(bytes(image(pie).data!));
    const wedge = layoutChart(
      ChartSpec.parse({ type: "pie", series: [{ values: [3, 1] }] }),
    ).shapes.find((s) => s.kind === "wedge");
    if (wedge?.kind !== "wedge") throw new Error("no wedge");
    // Three quarters from 12 o'clock clockwise is the first colour; the last quarter the second.
    expect(png.pixel(wedge.cx + 60, wedge.cy)).toEqual(rgb(COLORS[0]!));
    expect(png.pixel(wedge.cx - 40, wedge.cy - 60)).toEqual(rgb(COLORS[1]!));
    for (const type of ["line", "scatter"]) {
      const r = await mcp.client.callTool({
        name: "render_chart",
        arguments: { type, series: [{ name: "s", values: [1, 4, 2], xs: [0, 5, 10] }] },
      });
      expect(r.isError, type).toBeFalsy();
      const p = await decodePng(bytes(image(r).data!));
      let coloured = 0;
      const [cr, cg, cb] = rgb(COLORS[0]!);
      for (let y = 0; y < p.height; y += 2)
        for (let x = 0; x < p.width; x += 2) {
          const [pr, pg, pb] = p.pixel(x, y);
          if (pr === cr && pg === cg && pb === cb) coloured++;
        }
      expect(coloured, type).toBeGreaterThan(10);
    }
  });

  it("draws SVG on request, with the caller's strings escaped", async () => {
    const r = await mcp.client.callTool({
      name: "render_chart",
      arguments: {
        type: "bar",
        format: "svg",
        title: "<script>alert(1)</script>",
        labels: ["a", "b"],
        series: [{ name: 's"onload="x', values: [1, 3] }],
      },
    });
    const img = image(r);
    expect(img.mimeType).toBe("image/svg+xml");
    const svg = new TextDecoder().decode(bytes(img.data!));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(svg).not.toMatch(/<script|onload="/);
    expect(svg.match(/<rect [^>]*fill="#3857d8"/g)).toHaveLength(3); // two bars and the legend key
  });

  it("refuses a spec it cannot draw", async () => {
    const r = await mcp.client.callTool({
      name: "render_chart",
      arguments: { type: "bar", series: [{ values: [] }] },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/values/);
  });

  it("refuses data that would draw a blank or misleading chart, naming the field", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { type: "pie", series: [{ values: [0, 0] }] },
        /pie chart needs at least one value above zero/,
      ],
      [{ type: "pie", series: [{ values: [5, -2] }] }, /cannot be negative/],
      [
        { type: "line", series: [{ values: [1, 2, 3], xs: [0] }] },
        /series\[0\]\.xs has 1 positions for 3 values/,
      ],
      [{ type: "scatter", series: [{ values: [1e308, -1e308] }] }, /range overflows/],
    ];
    for (const [args, message] of cases) {
      const r = await mcp.client.callTool({
        name: "render_chart",
        arguments: { ...args, format: "svg" },
      });
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(text(r)).toMatch(message);
      expect((r.content as Array<{ type: string }>).some((c) => c.type === "image")).toBe(false);
    }
  });
});
