// Which conversations hold versions of a message: branches made at it, not those made before or
// after it, followed through branches of branches.
import { describe, expect, it } from "vitest";
import { alternativesOf, type TreeNode } from "./alternatives";

const node = (id: string, parentId: string | null, branchSeq: number | null, createdAt: number) =>
  ({ id, title: id, parentId, branchSeq, createdAt }) satisfies TreeNode;

// origin: four messages. regen: answer 2 made again. edit: question 3 edited (on origin).
// later: a branch of regen after its message 2 (it copies regen's version of 2).
// again: answer 2 made again from regen.
const tree = [
  node("origin", null, null, 1),
  node("regen", "origin", 2, 2),
  node("edit", "origin", 3, 3),
  node("later", "regen", 3, 4),
  node("again", "regen", 2, 5),
];
const view = (id: string) =>
  alternativesOf(id, tree).map((a) => [a.seq, a.conversations.map((c) => c.id), a.current]);

describe("the versions of each message", () => {
  it("lists every version of a message, the one asked about marked", () => {
    expect(view("origin")).toEqual([
      [2, ["origin", "regen", "again"], 0],
      [3, ["origin", "edit"], 0],
    ]);
    expect(view("again")).toEqual([[2, ["origin", "regen", "again"], 2]]);
  });

  it("a branch made after a message shows the versions of the message it copied", () => {
    // later copied regen's answer 2; its message 3 is its own version beside regen's.
    expect(view("later")).toEqual([
      [2, ["origin", "regen", "again"], 1],
      [3, ["regen", "later"], 1],
    ]);
  });

  it("a conversation without branches has no versions", () => {
    expect(alternativesOf("solo", [node("solo", null, null, 1)])).toEqual([]);
  });
});
