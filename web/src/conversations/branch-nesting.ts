// The conversation list shows each branch under the conversation it was made from: a family (an
// origin and its branches, depth first) is placed by its latest activity.
interface Listed {
  id: string;
  updatedAt: number;
  branchedFrom?: { conversationId: string } | undefined;
}

export interface Family<T> {
  /** The latest activity of any conversation of the family: where the family is listed. */
  updatedAt: number;
  rows: { item: T; depth: number }[];
}

/** Families in order of their latest activity; within one, branches follow their origin. */
export function nestBranches<T extends Listed>(items: readonly T[]): Family<T>[] {
  const ids = new Set(items.map((c) => c.id));
  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const item of items) {
    const parent = item.branchedFrom?.conversationId;
    // A branch whose origin is not listed (deleted, or not on this page) stands on its own.
    if (parent && ids.has(parent) && parent !== item.id)
      children.set(parent, [...(children.get(parent) ?? []), item]);
    else roots.push(item);
  }
  const families = roots.map((root) => {
    const rows: Family<T>["rows"] = [];
    const visit = (item: T, depth: number) => {
      rows.push({ item, depth });
      for (const child of children.get(item.id) ?? []) visit(child, depth + 1);
    };
    visit(root, 0);
    return { updatedAt: Math.max(...rows.map((r) => r.item.updatedAt)), rows };
  });
  return families.sort((a, b) => b.updatedAt - a.updatedAt);
}
