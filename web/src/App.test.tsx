// @vitest-environment jsdom
// Signing in: a start link opened in a tab that already shows the sign-in page, and a whole
// start link pasted into the token box.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { App } from "./App";

let root: Root;
let host: HTMLElement;
/** The tokens the page signed in with (POST /api/session). */
let signIns: string[];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  signIns = [];
  history.replaceState(null, "", "/");
  vi.stubGlobal("matchMedia", () => ({
    matches: false,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init?: RequestInit) => {
      if (path === "/api/session" && init?.method === "POST") {
        const { token } = JSON.parse(String(init.body)) as { token: string };
        signIns.push(token);
        return token === "tc_valid_token_1"
          ? json(200, { user: { id: "u1", name: "Ada" } })
          : json(401, { error: { code: "unauthorized", message: "That token is not valid." } });
      }
      if (path === "/api/session")
        return json(401, { error: { code: "unauthorized", message: "" } });
      if (path.startsWith("/api/conversations")) return json(200, { items: [], nextCursor: null });
      if (path === "/api/providers") return json(200, { providers: [] });
      return json(200, { items: [] });
    }),
  );
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
});
afterEach(async () => {
  await act(async () => root.unmount());
  host.remove();
  vi.unstubAllGlobals();
});

const settle = () => act(() => new Promise((r) => setTimeout(r, 20)));
const button = (name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);

async function signedOutPage() {
  await act(async () => root.render(<App />));
  await settle();
  expect(button("Sign in")).toBeDefined();
}

it("names the commands that make a token as code, not between backticks", async () => {
  await signedOutPage();
  expect([...host.querySelectorAll("code")].map((c) => c.textContent)).toEqual([
    "npm start",
    "npm run token:create",
  ]);
  expect(host.textContent).not.toContain("`");
});

it("signs in when a start link is opened in a tab that shows the sign-in page", async () => {
  await signedOutPage();
  // Opening the link in this tab changes only the fragment: no reload.
  await act(async () => {
    location.hash = "#token=tc_valid_token_1";
  });
  await settle();
  expect(signIns).toEqual(["tc_valid_token_1"]);
  expect(button("Sign in")).toBeUndefined();
  expect(host.textContent).toContain("Ada");
  // The token does not stay in the address.
  expect(location.hash).toBe("");
});

it("takes the token out of a whole start link pasted into the token box", async () => {
  await signedOutPage();
  const box = host.querySelector<HTMLInputElement>("#token")!;
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(
      box,
      "http://127.0.0.1:8787/#token=tc_valid_token_1",
    );
    box.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await act(async () => button("Sign in")!.click());
  await settle();
  expect(signIns).toEqual(["tc_valid_token_1"]);
  expect(host.textContent).not.toContain("not valid");
  expect(host.textContent).toContain("Ada");
});
