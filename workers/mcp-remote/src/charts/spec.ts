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
