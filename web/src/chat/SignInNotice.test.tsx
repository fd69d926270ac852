import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Activity, TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import { MessageView } from "./MessageView";
import { connectFromNotice, signInNotices } from "./SignInNotice";

const SKIPPED =
  "The MCP server 'tracker' needs you to sign in. Open Settings → MCP servers and press Connect.";
const signInLine = (seq: number, serverId = "s1", serverName = "tracker") => ({
  seq,
  source: "notice",
  level: "warning",
  text: SKIPPED,
  action: { kind: "mcp_sign_in" as const, serverId, serverName },
});

const answerWith = (log: Activity["log"]): TranscriptMessage => ({
  id: "a1",
  order: 2,
  role: "assistant",
  status: "complete",
  content: [{ type: "text", text: "Answered with the other servers." }],
  activity: { step: 1, maxSteps: 5, callSteps: {}, progress: {}, log, approvals: {} },
});

const render = (m: TranscriptMessage) =>
  renderToStaticMarkup(<MessageView message={m} onOpenArtifact={() => undefined} />);

describe("a turn that skipped a server until the user signs in", () => {
  it("shows the notice in the answer, outside the collapsed log, with a Connect button", () => {
    const html = render(
      answerWith([{ seq: 7, source: "tracker", level: "info", text: "hello" }, signInLine(8)]),
    );
    const notice = html.indexOf('data-testid="sign-in-notice"');
    expect(notice).toBeGreaterThan(-1);
    expect(notice).toBeLessThan(html.indexOf('<details class="tool-log"'));
    expect(html).toContain(
      '<button type="button" class="primary" aria-label="Connect tracker">Connect</button>',
    );
    expect(html).toContain("needs you to sign in.");
  });

  it("offers no button for notices without an action", () => {
    const html = render(answerWith([{ ...signInLine(8), action: undefined }]));
    expect(html).not.toContain("sign-in-notice");
    expect(html).not.toContain(">Connect</button>");
  });

  it("keeps one notice per server, the newest", () => {
    const lines = signInNotices([signInLine(3), signInLine(5, "s2", "docs"), signInLine(9)]);
    expect(lines.map((l) => [l.seq, l.action.serverName])).toEqual([
      [9, "tracker"],
      [5, "docs"],
    ]);
  });
});

describe("Connect in the timeline", () => {
  afterEach(() => vi.unstubAllGlobals());

  /** The browser as the sign-in sees it: window.open (a popup, or null when blocked) and fetch. */
  function browser(opts: { popupBlocked?: boolean; answer: unknown; status?: number }) {
    const popup = { location: { href: "" }, close: vi.fn() };
    const assign = vi.fn();
    const open = vi.fn(() => (opts.popupBlocked ? null : popup));
    vi.stubGlobal("window", {
      open,
      location: { assign, origin: "https://app.example", search: "?c=conv-1" },
    });
    const fetch = vi.fn(
      async (_path: string, _init: RequestInit) =>
        new Response(JSON.stringify(opts.answer), {
          status: opts.status ?? 200,
          headers: { "content-type": "application/json" },
        }),
    );
    vi.stubGlobal("fetch", fetch);
    const sent = () => {
      const [path, init] = fetch.mock.calls[0]!;
      return { path, body: JSON.parse(String(init.body)) as unknown };
    };
    return { popup, open, assign, sent };
  }

  const AUTHORIZE = "https://auth.example/authorize?client_id=c&state=s";

  it("opens the authorization page in a popup, like Settings", async () => {
    const b = browser({ answer: { kind: "redirect", authorizationUrl: AUTHORIZE } });
    expect(await connectFromNotice("s1")).toEqual({ kind: "waiting" });
    expect(b.open).toHaveBeenCalledOnce();
    expect(b.sent()).toEqual({
      path: "/api/mcp-servers/s1/connect",
      body: { display: "popup" },
    });
    expect(b.popup.location.href).toBe(AUTHORIZE);
  });

  it("goes to the authorization page in this window when popups are blocked", async () => {
    const b = browser({
      popupBlocked: true,
      answer: { kind: "redirect", authorizationUrl: AUTHORIZE },
    });
    const noted = new Map<string, string>();
    vi.stubGlobal("sessionStorage", { setItem: (k: string, v: string) => noted.set(k, v) });
    expect(await connectFromNotice("s1")).toEqual({ kind: "waiting" });
    expect(b.sent().body).toEqual({ display: "redirect" });
    expect(b.assign).toHaveBeenCalledWith(AUTHORIZE);
    // The app reopens this conversation when the sign-in sends the browser back.
    expect([...noted.values()]).toEqual(["?c=conv-1"]);
  });

  it("says why when the server cannot be connected, and closes the popup", async () => {
    const b = browser({
      answer: {
        kind: "failed",
        problem: { code: "metadata_invalid", message: "tracker.example describes no sign-in." },
      },
    });
    expect(await connectFromNotice("s1")).toEqual({
      kind: "failed",
      message: "tracker.example describes no sign-in.",
    });
    expect(b.popup.close).toHaveBeenCalled();
  });

  it("passes on what the API says when the request itself is refused", async () => {
    browser({
      status: 404,
      answer: { error: { code: "not_found", message: "MCP server not found." } },
    });
    expect(await connectFromNotice("gone")).toEqual({
      kind: "failed",
      message: "MCP server not found.",
    });
  });
});
