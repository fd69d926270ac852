// What a shared conversation shows: who is here and typing, each message's author, and a viewer's
// disabled message box with its reason.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import type { Presence } from "../chat/live-conversation";
import { MessageView } from "../chat/MessageView";
import { authorLabel, isShared } from "./author-label";
import { PresenceBar } from "./PresenceBar";
import { sharedTokenOf } from "./shared-token";
import { ViewerNotice } from "./ViewerNotice";

const presence = (typing: boolean): Presence => ({
  type: "presence",
  you: { userId: "u1", role: "owner" },
  people: [
    { userId: "u1", name: "ada", role: "owner", typing: false },
    { userId: "u2", name: "bo", role: "participant", typing },
  ],
});

const userMessage = (authorId: string, name: string): TranscriptMessage => ({
  id: `m-${authorId}`,
  order: 1,
  role: "user",
  status: "complete",
  content: [{ type: "text", text: "hello" }],
  author: { id: authorId, name },
});

describe("a shared conversation in the client", () => {
  it("lists the people here, calls you 'You', and says who is typing", () => {
    const html = renderToStaticMarkup(<PresenceBar presence={presence(true)} />);
    expect(html).toContain('You<span class="muted"> · owner</span>');
    expect(html).toContain('bo<span class="muted"> · participant</span>');
    expect(html).toContain("bo is typing…");
    expect(renderToStaticMarkup(<PresenceBar presence={presence(false)} />)).not.toContain(
      "is typing",
    );
  });

  it("shows nothing when you are alone in your own conversation", () => {
    const alone: Presence = { ...presence(false), people: [presence(false).people[0]!] };
    expect(renderToStaticMarkup(<PresenceBar presence={alone} />)).toBe("");
  });

  it("names each message's author once several people write, 'You' for your own", () => {
    const mine = userMessage("u1", "ada");
    const theirs = userMessage("u2", "bo");
    expect(isShared([mine], 1, false)).toBe(false);
    expect(isShared([mine, theirs], 1, false)).toBe(true);
    expect(authorLabel(mine, "u1", false)).toBeUndefined();
    expect(authorLabel(mine, "u1", true)).toBe("You");
    expect(authorLabel(theirs, "u1", true)).toBe("bo");
    const html = renderToStaticMarkup(
      <MessageView message={theirs} onOpenArtifact={() => undefined} author="bo" />,
    );
    expect(html).toContain('data-testid="message-author">bo</p>');
  });

  it("gives a viewer a disabled box that says why and whom to ask", () => {
    const html = renderToStaticMarkup(<ViewerNotice reason="viewer" owner="ada" />);
    expect(html).toContain("disabled");
    expect(html).toContain("You are a viewer of this conversation");
    expect(html).toContain("Ask ada to make you a participant.");
  });

  it("recognises a read-only link's address", () => {
    expect(sharedTokenOf("/shared/abc.def")).toBe("abc.def");
    expect(sharedTokenOf("/")).toBeNull();
    expect(sharedTokenOf("/shared/a/b")).toBeNull();
  });
});
