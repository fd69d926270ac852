import { describe, expect, it } from "vitest";
import { groupByDate } from "./date-groups";

describe("groupByDate", () => {
  it("puts conversations under today, yesterday, the last 7 days and older", () => {
    const now = new Date(2026, 10, 23, 15, 0).getTime();
    const at = (day: number, hour: number) => new Date(2026, 10, day, hour).getTime();
    const items = [
      { id: "a", updatedAt: at(23, 9) },
      { id: "b", updatedAt: at(22, 23) },
      { id: "c", updatedAt: at(17, 1) },
      { id: "d", updatedAt: at(16, 23) },
      { id: "e", updatedAt: at(23, 0) },
    ];
    expect(groupByDate(items, now).map((g) => [g.group, g.items.map((i) => i.id)])).toEqual([
      ["Today", ["a", "e"]],
      ["Yesterday", ["b"]],
      ["Last 7 days", ["c"]],
      ["Older", ["d"]],
    ]);
    expect(groupByDate([], now)).toEqual([]);
  });
});
