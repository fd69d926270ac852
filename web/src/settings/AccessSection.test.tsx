import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ApiTokenInfo, SessionInfo } from "../../../durable-objects/protocol/access";
import { AccessLists, type AccessListsProps } from "./AccessSection";
import { SettingsPanel } from "./SettingsPanel";
import { expiryWords, lastUsedWords, revokingSignsOut, tokenName } from "./access-state";

const now = Date.UTC(2026, 10, 22, 12);
const day = 86_400_000;

const laptop: ApiTokenInfo = {
  id: "tok-laptop-1",
  label: "laptop",
  createdAt: now - 3 * day,
  expiresAt: now + 3 * day,
  lastUsedAt: now - 5 * 60_000,
  current: true,
};
const script: ApiTokenInfo = {
  id: "0a1b2c3d4e5f",
  label: "",
  createdAt: now - 2 * 3_600_000,
  expiresAt: null,
  lastUsedAt: null,
  current: false,
};
const here: SessionInfo = {
  id: "s1",
  tokenId: laptop.id,
  createdAt: now - day,
  expiresAt: now + 6 * day,
  current: true,
};
const elsewhere: SessionInfo = { ...here, id: "s2", current: false, createdAt: now - 2 * day };

const noop = () => undefined;
const render = (overrides: Partial<AccessListsProps> = {}) =>
  renderToStaticMarkup(
    <AccessLists
      access={{ tokens: [laptop, script], sessions: [here, elsewhere] }}
      problem={null}
      confirming={null}
      busy={false}
      now={now}
      onConfirm={noop}
      onRevoke={noop}
      onSignOutEverywhere={noop}
      {...overrides}
    />,
  );

const textOf = (html: string) => html.replace(/<[^>]+>/g, "");

describe("API tokens & sessions", () => {
  it("lists each token with its dates and marks the one this browser uses", () => {
    const html = render();
    const text = textOf(html);
    expect(html).toContain("API tokens &amp; sessions</h3>");
    expect(text).toContain("laptop (this one)");
    expect(text).toMatch(/Created 3 days ago · Expires in 3 days · Last used 5 minutes ago/);
    // No label: named from its id; no expiry, never used.
    expect(text).toMatch(/Token 0a1b2c3d(?! \(this one\))/);
    expect(text).toMatch(/Created 2 hours ago · Never expires · Never used/);
    expect(html).toContain('aria-label="Revoke laptop"');
    expect(html).toContain('aria-label="Revoke Token 0a1b2c3d"');
  });

  it("lists signed-in browsers, this one first as 'This browser', with the token each used", () => {
    const text = textOf(render());
    expect(text).toMatch(/This browser with laptopSigned in yesterday · Expires in 6 days/);
    expect(text).toMatch(/Another browser with laptopSigned in 2 days ago/);
    expect(text).toContain("Sign out everywhere");
    expect(text).not.toContain("Sign out everywhere now");
  });

  it("asks before revoking, and warns when the token is this browser's own", () => {
    const own = textOf(render({ confirming: laptop.id }));
    expect(own).toContain("revoking it signs you out here too");
    expect(own).toContain("Revoke laptopCancel");
    const other = textOf(render({ confirming: script.id }));
    expect(other).toContain("Anything still using this token will get 401 from now on.");
    expect(other).not.toContain("signs you out here too");
  });

  it("asks before signing out everywhere and says what it does", () => {
    const text = textOf(render({ confirming: "everywhere" }));
    expect(text).toContain(
      "Every browser, this one included, must sign in again. API tokens keep working.",
    );
    expect(text).toContain("Sign out everywhere nowCancel");
  });

  it("shows a load failure in words, and a note when no browser has a session", () => {
    const failed = render({ access: null, problem: "Sign in first." });
    expect(failed).toMatch(/role="alert"[^>]*>Sign in first\./);
    expect(failed).not.toContain("Loading");
    const tokensOnly = textOf(render({ access: { tokens: [script], sessions: [] } }));
    expect(tokensOnly).toContain("No browser is signed in with a session.");
  });
});

describe("token words", () => {
  it("names, expiry and last use", () => {
    expect(tokenName({ id: "abcdef0123", label: "  " })).toBe("Token abcdef01");
    expect(expiryWords(now - 1, now)).toBe("Expired");
    expect(expiryWords(null, now)).toBe("Never expires");
    expect(lastUsedWords(null, now)).toBe("Never used");
    expect(revokingSignsOut(laptop)).toBe(true);
    expect(revokingSignsOut(script)).toBe(false);
  });
});

describe("the settings panel", () => {
  it("has the section, below the account's Sign out", () => {
    const html = renderToStaticMarkup(
      <SettingsPanel
        conversation={{
          id: "c1",
          title: "t",
          provider: "anthropic",
          model: "m",
          mode: "normal",
          settings: {},
          createdAt: 0,
          updatedAt: 0,
        }}
        providers={[]}
        onConversationChange={noop}
        onClose={noop}
        onSignOut={noop}
      />,
    );
    expect(html.indexOf(">Sign out</button>")).toBeGreaterThan(0);
    expect(html.indexOf("API tokens &amp; sessions")).toBeGreaterThan(html.indexOf(">Sign out<"));
  });
});
