// The chart spec a caller (usually a model) sends: small, bounded, validated.
import { z } from "zod";

export const ChartSpec = z.object({
  type: z.enum(["bar", "line", "scatter", "pie"]),
  title: z.string().max(200).default(""),
  labels: z
    .array(z.string().max(60))
    .max(100)
    .default([])
    .describe("Category labels along the x axis (bar, line) or slice names (pie)."),
  series: z
    .array(
      z.object({
        name: z.string().max(60).default(""),
        values: z.array(z.number().finite()).min(1).max(500),
        xs: z
          .array(z.number().finite())
          .max(500)
          .optional()
          .describe("x positions for line and scatter charts; by default 0, 1, 2, …"),
      }),
    )
    .min(1)
    .max(8)
    .describe("A pie chart draws the first series only."),
  format: z
    .enum(["png", "svg"])
    .default("png")
    .describe("PNG by default; SVG for a vector picture."),
});
export type ChartSpec = z.infer<typeof ChartSpec>;

/**
 * What the schema cannot say about a spec that would still draw a misleading picture, or null.
 * Each answer names the field and the rule, so a model can correct the call.
 */
export function chartProblem(spec: ChartSpec): string | null {
  for (const [i, s] of spec.series.entries())
    if (
      s.xs &&
      (spec.type === "line" || spec.type === "scatter") &&
      s.xs.length !== s.values.length
    )
      return `series[${i}].xs has ${s.xs.length} positions for ${s.values.length} values; give one x per value, or leave xs out.`;
  const all = spec.series.flatMap((s) => [...s.values, ...(s.xs ?? [])]);
  // A span past the largest double makes every position NaN.
  if (!Number.isFinite(Math.max(...all) - Math.min(...all)))
    return "The values span more than a chart can scale (their range overflows); rescale them first.";
  if (spec.type === "pie") {
    const values = spec.series[0]!.values;
    if (values.some((v) => v < 0))
      return "A pie chart's values are shares and cannot be negative; use a bar chart for signed values.";
    if (!values.some((v) => v > 0))
      return "A pie chart needs at least one value above zero; every slice would be empty.";
  }
  return null;
}
