// @vitest-environment jsdom
// After Approve or Deny the buttons go: the focus stays on the card instead of the page's start.
import { act } from "react";
import { createRoot } from "react-dom/client";
import { expect, it } from "vitest";
import type { ApprovalView } from "../../../durable-objects/protocol/transcript";
import { ApprovalCard } from "./ApprovalCard";

const pending: ApprovalView = {
  approvalId: "ap1",
  callId: "c1",
  step: 1,
  server: "notes",
  tool: "delete_note",
  arguments: { name: "old" },
  expiresAt: Date.UTC(2030, 0, 1),
};

it("keeps the focus on the card once Approve is pressed", () => {
  const host = document.createElement("div");
  document.body.appendChild(host);
  const root = createRoot(host);
  const answers: string[] = [];
  act(() =>
    root.render(
      <ApprovalCard approval={pending} onAnswer={(_, a) => !!answers.push(a.decision)} />,
    ),
  );
  const approve = [...host.querySelectorAll("button")].find((b) => b.textContent === "Approve")!;
  approve.focus();
  act(() => approve.click());
  expect(answers).toEqual(["approve"]);
  expect(document.activeElement).toBe(host.querySelector('[data-testid="approval-card"]'));
  act(() => root.unmount());
  host.remove();
});
