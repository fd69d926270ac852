// @vitest-environment jsdom
// The providers' health in Settings: checked when asked, one line per configured provider.
import { act } from "react";
import type { Root } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { mountInPage } from "../test-page";
import { ProvidersHealth } from "../../../durable-objects/protocol/provider-health";
import { ApiFailure } from "../api";
import { ProviderHealthSection } from "./ProviderHealthSection";

let root: Root;
let host: HTMLElement;

function show(check: () => Promise<ProvidersHealth>) {
  ({ host, root } = mountInPage());
  act(() => root.render(<ProviderHealthSection check={check} />));
}

const press = async (name: RegExp) => {
  const b = [...host.querySelectorAll("button")].find((x) => name.test(x.textContent ?? ""));
  if (!b) throw new Error(`no button ${name}`);
  await act(async () => {
    b.click();
    await new Promise((r) => setTimeout(r, 0));
  });
};

// As GET /api/providers/health answers (parsed with the same schema the client uses).
const answer = ProvidersHealth.parse({
  providers: [
    {
      id: "anthropic",
      reachable: true,
      latencyMs: 182,
      recent: [
        { reachable: true, latencyMs: 182, checkedAt: 3 },
        { reachable: true, latencyMs: 240, checkedAt: 2 },
      ],
    },
    {
      id: "ollama",
      reachable: false,
      latencyMs: 3,
      error: "The connection to Ollama failed (connection refused): check the tunnel.",
      recent: [{ reachable: false, latencyMs: 3, checkedAt: 3 }],
    },
  ],
});

describe("the providers' health view", () => {
  it("checks when asked and shows each provider: reachable or not, latency, what to fix", async () => {
    let calls = 0;
    show(() => {
      calls += 1;
      return Promise.resolve(answer);
    });
    expect(calls).toBe(0);
    await press(/Check providers/);
    expect(calls).toBe(1);
    const anthropic = host.querySelector('[data-testid="health-anthropic"]')!;
    expect(anthropic.getAttribute("data-reachable")).toBe("true");
    expect(anthropic.textContent).toContain("Anthropic reachable (182 ms)");
    expect(anthropic.textContent).toContain("Latest checks: 182 ms, 240 ms");
    const ollama = host.querySelector('[data-testid="health-ollama"]')!;
    expect(ollama.getAttribute("data-reachable")).toBe("false");
    expect(ollama.textContent).toContain("Ollama not reachable (3 ms)");
    expect(ollama.textContent).toContain("check the tunnel");
    await press(/Check again/);
    expect(calls).toBe(2);
  });

  it("lists the models the Ollama tunnel offers", async () => {
    show(() =>
      Promise.resolve({
        providers: [
          {
            id: "ollama",
            reachable: true,
            latencyMs: 12,
            recent: [{ reachable: true, latencyMs: 12, checkedAt: 1 }],
            models: ["qwen3:8b", "llama3.2:latest"],
          },
        ],
      }),
    );
    await press(/Check providers/);
    expect(host.textContent).toContain("Models the tunnel offers: qwen3:8b, llama3.2:latest");
  });

  it("says so when the check itself fails", async () => {
    show(() => Promise.reject(new ApiFailure(500, "internal", "The server failed.")));
    await press(/Check providers/);
    expect(host.querySelector('[role="alert"]')?.textContent).toBe("The server failed.");
  });
});
