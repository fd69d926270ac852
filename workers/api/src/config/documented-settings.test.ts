// Every setting the API worker reads is in the README's Configuration section, so an operator
// who has only the README can find it: the optional ones typed in shared/env.ts, and the vars
// and required secrets wrangler.toml declares.
import { expect, it } from "vitest";
import readme from "../../../../README.md?raw";
import envTs from "../../../../shared/env.ts?raw";
import wranglerToml from "../../../../wrangler.toml?raw";

const section = (markdown: string, heading: string) => {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end);
};

it("names each optional setting, var and required secret in README, Configuration", () => {
  const configuration = section(readme, "Configuration");
  const optional = [...envTs.matchAll(/^\s+([A-Z][A-Z0-9_]+)\?: string;/gm)].map(([, n]) => n!);
  const topLevelVars = wranglerToml.split("\n[vars]\n")[1]!.split("\n[")[0]!;
  const vars = [...topLevelVars.matchAll(/^([A-Z][A-Z0-9_]+) = /gm)].map(([, n]) => n!);
  const secrets = [...wranglerToml.matchAll(/required = \[([^\]]*)\]/g)].flatMap(
    ([, list]) => JSON.parse(`[${list}]`) as string[],
  );
  expect(optional.length).toBeGreaterThan(20);
  expect(vars).toContain("CHEAP_MODELS");
  const undocumented = [...new Set([...optional, ...vars, ...secrets])].filter(
    // RATE_LIMIT_<NAME>: the table names the family, Security lists each.
    (name) => !configuration.includes(`\`${name}\``) && !name.startsWith("RATE_LIMIT_"),
  );
  expect(undocumented).toEqual([]);
});
