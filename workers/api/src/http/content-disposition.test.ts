import { expect, it } from "vitest";
import { contentDisposition } from "./content-disposition";

it("names the file in UTF-8, with a plain Latin-1 name beside it that cannot end the quotes", () => {
  const header = contentDisposition("attachment", 'Отчёт "Q3" \\ final.md');
  expect(header).toBe(
    `attachment; filename="_ _Q3_ _ final.md"; filename*=UTF-8''${encodeURIComponent('Отчёт "Q3" \\ final.md')}`,
  );
  expect(contentDisposition("inline", "Chart.png")).toBe(
    `inline; filename="Chart.png"; filename*=UTF-8''Chart.png`,
  );
});
