import { describe, expect, it } from "vitest";
import { guardedFetch } from "./guarded-fetch";
import { checkServerUrl } from "./url-guard";

const REFUSED = [
  "http://127.0.0.1/mcp",
  "https://127.0.0.1/mcp",
  "https://127.1/mcp",
  "https://127.0.1/mcp",
  "https://0177.0.0.1/mcp",
  "https://0x7f.0.0.1/mcp",
  "https://0x7f000001/mcp",
  "https://2130706433/mcp",
  "https://017700000001/mcp",
  "https://127.255.255.254/mcp",
  "https://localhost/mcp",
  "https://LOCALHOST./mcp",
  "https://api.localhost/mcp",
  "https://0.0.0.0/mcp",
  "https://0/mcp",
  "https://[::]/mcp",
  "https://[::1]/mcp",
  "https://[0:0:0:0:0:0:0:1]/mcp",
  "https://[::ffff:127.0.0.1]/mcp",
  "https://[::ffff:7f00:1]/mcp",
  "https://[::127.0.0.1]/mcp",
  "https://[64:ff9b::127.0.0.1]/mcp",
  "https://[fe80::1]/mcp",
  "https://[fc00::1]/mcp",
  "https://[fd12:3456::1]/mcp",
  "https://10.0.0.1/mcp",
  "https://10.255.255.255/mcp",
  "https://172.16.0.1/mcp",
  "https://172.31.255.255/mcp",
  "https://192.168.1.1/mcp",
  "https://0xc0a80101/mcp",
  "https://100.64.0.1/mcp",
  "https://169.254.169.254/latest/meta-data",
  "https://169.254.0.1/mcp",
  "https://[::ffff:169.254.169.254]/mcp",
  "https://[fd00:ec2::254]/mcp",
  "https://metadata.google.internal/computeMetadata/v1",
  "https://metadata/mcp",
  "https://something.internal/mcp",
  "https://224.0.0.1/mcp",
  "https://255.255.255.255/mcp",
  "https://user:pass@example.com/mcp",
  "https://example.com@127.0.0.1/mcp",
  "ftp://example.com/mcp",
  "file:///etc/passwd",
  "http://example.com/mcp",
  "https://%31%32%37.0.0.1/mcp",
  "https://127.0.0.1.:443/mcp",
  // IPv6 spellings that carry a private IPv4 address, and the old site-local range.
  "https://[::ffff:0:7f00:1]/mcp",
  "https://[::ffff:0:127.0.0.1]/mcp",
  "https://[2002:7f00:1::]/mcp",
  "https://[2002:a00:1::1]/mcp",
  "https://[2002:a9fe:a9fe::]/mcp",
  "https://[fec0::1]/mcp",
  "https://[feff::1]/mcp",
  // Names that mean this machine or its network whatever DNS says.
  "https://localtest.me/mcp",
  "https://api.localtest.me/mcp",
  "https://localhost.localdomain/mcp",
  "https://ip6-localhost/mcp",
  "https://ip6-loopback/mcp",
  "https://printer.local/mcp",
  "https://nas.home.arpa/mcp",
  "https://intranet/mcp",
];

describe("MCP server URLs are checked before any request", () => {
  it(`refuses ${REFUSED.length} private, loopback, link-local and metadata spellings`, () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(40);
    for (const url of REFUSED)
      expect(checkServerUrl(url, { allowLocal: false }).ok, url).toBe(false);
  });

  it("allows public https servers, and loopback http only in local development", () => {
    expect(checkServerUrl("https://mcp.example.com/mcp", { allowLocal: false }).ok).toBe(true);
    expect(checkServerUrl("https://93.184.216.34/mcp", { allowLocal: false }).ok).toBe(true);
    // 6to4 of a public address, and a global IPv6 address.
    expect(checkServerUrl("https://[2002:5db8:d822::1]/mcp", { allowLocal: false }).ok).toBe(true);
    expect(checkServerUrl("https://[2606:4700::1111]/mcp", { allowLocal: false }).ok).toBe(true);
    expect(checkServerUrl("http://127.0.0.1:3001/mcp", { allowLocal: true }).ok).toBe(true);
    expect(checkServerUrl("http://localhost:3001/mcp", { allowLocal: true }).ok).toBe(true);
    // Local development never opens metadata or private networks.
    expect(checkServerUrl("http://169.254.169.254/", { allowLocal: true }).ok).toBe(false);
    expect(checkServerUrl("http://10.0.0.5/mcp", { allowLocal: true }).ok).toBe(false);
  });

  it("says why a URL was refused", () => {
    const r = checkServerUrl("https://169.254.169.254/latest", { allowLocal: false });
    expect(r).toMatchObject({ ok: false, reason: expect.stringContaining("metadata") });
    expect(checkServerUrl("https://0.0.0.0/mcp", { allowLocal: false })).toMatchObject({
      reason: "0.0.0.0 is an unspecified address",
    });
  });

  it("re-checks every redirect and never requests a refused target", async () => {
    const requested: string[] = [];
    const fake = (async (input: RequestInfo | URL) => {
      const url = String(input);
      requested.push(url);
      if (url === "https://mcp.example.com/mcp")
        return new Response(null, {
          status: 302,
          headers: { location: "https://hop.example.com/next" },
        });
      if (url === "https://hop.example.com/next")
        return new Response(null, {
          status: 307,
          headers: { location: "http://169.254.169.254/latest/meta-data" },
        });
      return new Response("secret");
    }) as typeof fetch;
    const guarded = guardedFetch(fake, { allowLocal: false });
    await expect(guarded("https://mcp.example.com/mcp")).rejects.toThrow(/metadata/);
    expect(requested).toEqual(["https://mcp.example.com/mcp", "https://hop.example.com/next"]);
    await expect(guarded("https://10.1.2.3/mcp")).rejects.toThrow(/private/);
    expect(requested).toHaveLength(2);
  });
});
