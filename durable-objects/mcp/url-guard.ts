// Checks an MCP server URL before any request: https outside local development, and never a
// private, loopback, link-local, unique-local or metadata address, in any spelling.
export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const METADATA_HOSTS = new Set([
  "metadata.google.internal",
  "metadata",
  "instance-data",
  "metadata.azure.internal",
]);

/** Parses IPv4 in the spellings inet_aton accepts: 127.1, 0x7f.1, 0177.0.0.1, 2130706433. */
export function parseIPv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length === 0 || parts.length > 4 || parts.some((p) => p === "")) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]+$/i.test(p)) n = parseInt(p, 16);
    else if (/^0[0-7]*$/.test(p)) n = parseInt(p, 8);
    else if (/^[1-9][0-9]*$/.test(p)) n = parseInt(p, 10);
    else return null;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  const bytes = [...nums];
  for (let i = 3 - nums.length; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256);
  return bytes;
}

function ipv4Blocked([a, b]: number[]): string | null {
  if (a === undefined || b === undefined) return "invalid address";
  if (a === 0) return "unspecified address";
  if (a === 127) return "loopback address";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168))
    return "private address";
  if (a === 100 && b >= 64 && b <= 127) return "shared (CGNAT) address";
  if (a === 169 && b === 254) return "link-local or metadata address";
  if (a === 192 && b === 0) return "reserved address";
  if (a === 198 && (b === 18 || b === 19)) return "benchmark address";
  if (a >= 224) return "multicast or reserved address";
  return null;
}

function expandIPv6(host: string): number[] | null {
  let h = host
    .replace(/^\[|\]$/g, "")
    .split("%")[0]!
    .toLowerCase();
  let tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (v4) {
    const bytes = parseIPv4(v4[1]!);
    if (!bytes) return null;
    tail = [(bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!];
    h = h.slice(0, -v4[1]!.length) + (h.endsWith("::" + v4[1]) ? "" : "0:0").replace(/^0:0$/, "");
    if (h.endsWith(":") && !h.endsWith("::")) h = h.slice(0, -1);
  }
  const [head, rest] = h.split("::");
  if (h.split("::").length > 2) return null;
  const parse = (s: string | undefined) =>
    s
      ? s
          .split(":")
          .filter((x) => x !== "")
          .map((x) => (/^[0-9a-f]{1,4}$/.test(x) ? parseInt(x, 16) : NaN))
      : [];
  const a = parse(head);
  const b = [...parse(rest), ...tail];
  if ([...a, ...b].some(Number.isNaN)) return null;
  const fill = rest === undefined ? 0 : 8 - a.length - b.length;
  if (fill < 0) return null;
  const groups = [...a, ...Array(fill).fill(0), ...b];
  return groups.length === 8 ? groups : null;
}

function ipv6Blocked(g: number[]): string | null {
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = g;
  if (g.every((x) => x === 0)) return "unspecified address";
  if (g.slice(0, 7).every((x) => x === 0) && g7 === 1) return "loopback address";
  if ((g0 & 0xfe00) === 0xfc00) return "unique-local address";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local address";
  if ((g0 & 0xff00) === 0xff00) return "multicast address";
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::) carry an IPv4 address.
  const embedded = [g6 >> 8, g6 & 255, g7 >> 8, g7 & 255];
  if (g.slice(0, 5).every((x) => x === 0) && (g5 === 0xffff || g5 === 0))
    return ipv4Blocked(embedded);
  if (g0 === 0x64 && g[1] === 0xff9b) return ipv4Blocked(embedded);
  // IPv4-translated (::ffff:0:a.b.c.d) also carries one.
  if (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g5 === 0)
    return ipv4Blocked(embedded);
  // 6to4 (2002:aabb:ccdd::) routes to the IPv4 address in its second and third groups.
  const [, g1 = 0, g2 = 0] = g;
  if (g0 === 0x2002) return ipv4Blocked([g1 >> 8, g1 & 255, g2 >> 8, g2 & 255]);
  if ((g0 & 0xffc0) === 0xfec0) return "site-local address";
  return null;
}

/** Names that mean this machine or its local network, whatever a resolver says. */
const LOOPBACK_NAMES = new Set([
  "localhost",
  "localhost.localdomain",
  "ip6-localhost",
  "ip6-loopback",
  "localtest.me",
]);
const LOCAL_SUFFIXES = [".local", ".localdomain", ".home.arpa", ".lan"];

function nameProblem(host: string): string | null {
  if (LOOPBACK_NAMES.has(host) || host.endsWith(".localhost") || host.endsWith(".localtest.me"))
    return "loopback address";
  if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return "local network name";
  // A name without a dot only resolves through local search domains or /etc/hosts.
  if (!host.includes(".")) return "local network name";
  return null;
}

/** Why an address a resolver returned (A or AAAA) may not be reached, or null when it is public. */
export function resolvedAddressProblem(address: string): string | null {
  if (address.includes(":")) {
    const groups = expandIPv6(address);
    return groups ? ipv6Blocked(groups) : "invalid IPv6 address";
  }
  const v4 = parseIPv4(address);
  return v4 ? ipv4Blocked(v4) : "invalid IPv4 address";
}

/** A host name (not an IP literal) whose addresses a resolver must vouch for in production. */
export function needsResolving(url: URL): boolean {
  const host = url.hostname;
  return !host.startsWith("[") && parseIPv4(host) === null;
}

export function checkServerUrl(raw: string, opts: { allowLocal: boolean }): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return { ok: false, reason: `${url.protocol} URLs are not allowed; use https://` };
  if (url.username || url.password)
    return { ok: false, reason: "credentials in the URL are not allowed; use headers" };
  const host = decodeURIComponent(url.hostname).toLowerCase().replace(/\.+$/, "");
  let problem: string | null;
  if (METADATA_HOSTS.has(host) || host.endsWith(".internal")) problem = "cloud metadata host";
  else if (host.startsWith("[") || host.includes(":")) {
    const groups = expandIPv6(host);
    problem = groups ? ipv6Blocked(groups) : "invalid IPv6 address";
    if (groups && groups.join(",") === "64768,60418,0,0,0,0,0,596")
      problem = "cloud metadata address";
  } else {
    const v4 = parseIPv4(host);
    if (v4)
      problem =
        v4[0] === 169 && v4[1] === 254 && v4[2] === 169 && v4[3] === 254
          ? "cloud metadata address"
          : ipv4Blocked(v4);
    else if (/^[0-9.x]+$/i.test(host)) problem = "invalid numeric address";
    else problem = nameProblem(host);
  }
  const loopbackOnly = problem === "loopback address";
  if (problem && !(opts.allowLocal && loopbackOnly))
    return {
      ok: false,
      reason: `${url.hostname} is ${/^[aeiou]/.test(problem) ? "an" : "a"} ${problem}`,
    };
  if (url.protocol === "http:" && !(opts.allowLocal && loopbackOnly))
    return {
      ok: false,
      reason: "use https:// (plain http is only allowed for loopback in local development)",
    };
  return { ok: true, url };
}
