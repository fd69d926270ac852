import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import type { ProviderInfo } from "../../../durable-objects/protocol/rest";
import { ProviderModelFields } from "./ProviderModelFields";

const providers: ProviderInfo[] = [
  { id: "anthropic", configured: true, defaultModel: "claude-haiku-4-5", models: [] },
  { id: "gemini", configured: false, defaultModel: "gemini-2.5-flash", models: [] },
];
const fields = (provider: string) =>
  renderToStaticMarkup(
    <ProviderModelFields
      providers={providers}
      provider={provider}
      model=""
      onChange={() => undefined}
    />,
  );

it("does not offer a provider the server has no key for", () => {
  const html = fields("anthropic");
  expect(html).toContain('<option value="gemini" disabled="">gemini (not configured)</option>');
  expect(html).toMatch(/<option value="anthropic" selected="">anthropic<\/option>/);
  expect(html).not.toContain("provider-not-configured");
});

it("keeps one already chosen, and says its answers will fail", () => {
  const html = fields("gemini");
  expect(html).toMatch(/<option value="gemini" selected="">gemini \(not configured\)<\/option>/);
  expect(html).toContain("gemini is not configured on this server");
});
