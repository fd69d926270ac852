// axe-core in a page: the serious and critical accessibility violations it finds, in light or
// dark. The page's context needs bypassCSP (only so that the test can inject axe-core).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

export async function axeViolations(page: Page, scheme: "light" | "dark"): Promise<string[]> {
  await page.emulateMedia({ colorScheme: scheme });
  if (!(await page.evaluate(() => "axe" in window)))
    await page.addScriptTag({ content: AXE_SOURCE });
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (o: object) => Promise<unknown> } }).axe;
    return (await axe.run({ resultTypes: ["violations"] })) as {
      violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
    };
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${scheme}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
}
