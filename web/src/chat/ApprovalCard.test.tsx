import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ApprovalView } from "../../../durable-objects/protocol/transcript";
import { ApprovalCard, FOLD_CHARS } from "./ApprovalCard";
import { answererOf } from "../sharing/answerer";

const pending: ApprovalView = {
  approvalId: "ap1",
  callId: "c1",
  step: 1,
  server: "notes",
  tool: "delete_note",
  arguments: { name: "old", body: "x".repeat(FOLD_CHARS + 50) },
  expiresAt: Date.UTC(2030, 0, 1),
};

describe("the approval card", () => {
  it("asks with the server, the tool and readable arguments, folding long ones", () => {
    const html = renderToStaticMarkup(<ApprovalCard approval={pending} />);
    expect(html).toContain("Approve this tool call?");
    expect(html).toContain("notes");
    expect(html).toContain("delete_note");
    expect(html).toMatch(/<dt>name<\/dt><dd><pre class="tool-json">old<\/pre>/);
    // The long value is folded behind its first characters.
    expect(html).toMatch(/<dt>body<\/dt><dd><details><summary>x+… \(250 characters\)<\/summary>/);
    expect(html).toContain(">Approve</button>");
    expect(html).toContain(">Deny</button>");
    expect(html).toContain("Always allow this tool");
    expect(html).toContain("Note for the model");
  });

  it("names a tool as it reads, without the bidi override that would disguise it", () => {
    // "delete_all\u202Eweiver_" would read "delete_all_review" on the card.
    const html = renderToStaticMarkup(
      <ApprovalCard approval={{ ...pending, tool: "delete_all\u202Eweiver_" }} />,
    );
    expect(html).toContain("<strong>delete_allweiver_</strong>");
    expect(html).toContain('aria-label="Approval for delete_allweiver_"');
  });

  it("once answered, says who decided what and drops the buttons", () => {
    const html = renderToStaticMarkup(
      <ApprovalCard
        approval={{
          ...pending,
          decided: { decision: "deny", via: "rest", note: "keep it", at: 0 },
        }}
      />,
    );
    expect(html).toContain("Denied by you (API,");
    expect(html).toContain("“keep it”");
    expect(html).not.toContain("<button");
    const expired = renderToStaticMarkup(
      <ApprovalCard
        approval={{ ...pending, decided: { decision: "deny", via: "expiry", at: 0 } }}
      />,
    );
    expect(expired).toContain("Denied: nobody answered in time");
  });

  describe("in a shared conversation", () => {
    const as = (role: "owner" | "participant" | "viewer") =>
      answererOf({
        role,
        me: "u-me",
        shared: true,
        names: [
          ["u-me", "ada"],
          ["u-bo", "bo"],
        ],
      });

    it("names who decided: another member by name, your own answer as you", () => {
      const byBo = renderToStaticMarkup(
        <ApprovalCard
          approval={{
            ...pending,
            decided: { decision: "approve", via: "websocket", userId: "u-bo", at: 0 },
          }}
          answerer={as("owner")}
        />,
      );
      expect(byBo).toContain("Approved by bo (app,");
      const byMe = renderToStaticMarkup(
        <ApprovalCard
          approval={{
            ...pending,
            decided: { decision: "deny", via: "rest", userId: "u-me", at: 0 },
          }}
          answerer={as("participant")}
        />,
      );
      expect(byMe).toContain("Denied by you (API,");
    });

    it("a viewer sees the question but no buttons, and why", () => {
      const html = renderToStaticMarkup(
        <ApprovalCard approval={pending} answerer={as("viewer")} onAnswer={() => true} />,
      );
      expect(html).toContain("delete_note");
      expect(html).not.toContain("<button");
      expect(html).toContain("as a viewer you cannot answer");
    });

    it("a participant may approve or deny, but is not offered “always allow” (the owner's)", () => {
      const html = renderToStaticMarkup(
        <ApprovalCard approval={pending} answerer={as("participant")} onAnswer={() => true} />,
      );
      expect(html).toContain(">Approve</button>");
      expect(html).not.toContain("Always allow this tool");
      expect(html).toContain("only the owner can always allow a tool");
      const owner = renderToStaticMarkup(
        <ApprovalCard approval={pending} answerer={as("owner")} onAnswer={() => true} />,
      );
      expect(owner).toContain("Always allow this tool");
    });
  });
});
