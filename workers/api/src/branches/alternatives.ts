// The versions of each message across a tree of branches. A branch copies its origin's messages
// before its `branchSeq` and makes its own from there, so the message at order `seq` of a branch
// made at `seq` (an edit, a regenerated or continued answer) is another version of its origin's.
import type { MessageAlternatives } from "../../../../durable-objects/protocol/branches";

export interface TreeNode {
  id: string;
  title: string;
  parentId: string | null;
  /** The first message order that is the conversation's own (null: not a branch). */
  branchSeq: number | null;
  createdAt: number;
}

/** For conversation `id`, each message order that has more than one version, and which is its. */
export function alternativesOf(id: string, tree: readonly TreeNode[]): MessageAlternatives[] {
  const byId = new Map(tree.map((n) => [n.id, n]));
  const parentOf = (n: TreeNode) => (n.parentId ? byId.get(n.parentId) : undefined);
  const self = byId.get(id);
  if (!self) return [];
  const seqs = [...new Set(tree.flatMap((n) => (n.branchSeq === null ? [] : [n.branchSeq])))];
  return seqs
    .sort((a, b) => a - b)
    .flatMap((seq) => {
      // Up to where the message at `seq` was first written; on the way, the version that is ours.
      let root = self;
      let ours: TreeNode | undefined;
      while (root.branchSeq !== null && seq <= root.branchSeq) {
        const parent = parentOf(root);
        if (!parent) break;
        if (!ours && root.branchSeq === seq) ours = root;
        root = parent;
      }
      const versions = [root, ...versionsBelow(root, seq, tree)].sort(
        (a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
      );
      if (versions.length < 2) return [];
      return [
        {
          seq,
          conversations: versions.map((v) => ({ id: v.id, title: v.title })),
          current: versions.indexOf(ours ?? root),
        },
      ];
    });
}

/** Branches under `node` that wrote their own message at `seq` on the same history before it. */
function versionsBelow(node: TreeNode, seq: number, tree: readonly TreeNode[]): TreeNode[] {
  return tree
    .filter((c) => c.parentId === node.id && c.branchSeq !== null && c.branchSeq >= seq)
    .flatMap((c) => [...(c.branchSeq === seq ? [c] : []), ...versionsBelow(c, seq, tree)]);
}
