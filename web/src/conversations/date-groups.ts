// The conversation list's sections by last activity: today, yesterday, the last 7 days, older
// (calendar days in the browser's time zone).
export type DateGroup = "Today" | "Yesterday" | "Last 7 days" | "Older";

const DAY_MS = 86_400_000;

export function groupOf(at: number, now: number): DateGroup {
  const startOfToday = new Date(now).setHours(0, 0, 0, 0);
  if (at >= startOfToday) return "Today";
  if (at >= startOfToday - DAY_MS) return "Yesterday";
  if (at >= startOfToday - 6 * DAY_MS) return "Last 7 days";
  return "Older";
}

/** The items in their groups, groups in order, empty groups left out; item order is kept. */
export function groupByDate<T extends { updatedAt: number }>(
  items: readonly T[],
  now = Date.now(),
): { group: DateGroup; items: T[] }[] {
  const order: DateGroup[] = ["Today", "Yesterday", "Last 7 days", "Older"];
  const byGroup = new Map<DateGroup, T[]>();
  for (const item of items) {
    const group = groupOf(item.updatedAt, now);
    byGroup.set(group, [...(byGroup.get(group) ?? []), item]);
  }
  return order.flatMap((group) => {
    const grouped = byGroup.get(group);
    return grouped ? [{ group, items: grouped }] : [];
  });
}
