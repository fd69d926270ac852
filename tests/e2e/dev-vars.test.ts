// npm start's configuration: the one .dev.vars the README names also configures our MCP worker,
// whose `wrangler dev` reads only workers/mcp-remote/.dev.vars.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module of our scripts, without types
import { prepareDevVars } from "../../scripts/lib/dev-vars.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
let root: string;
const generated = { MCP_REMOTE_TOKEN: "token-1", GRAPH_CONTEXT_SECRET: "ctx-1" };
const mcpVars = () => readFileSync(join(root, "workers/mcp-remote/.dev.vars"), "utf8");

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "thinking-chat-devvars-"));
  mkdirSync(join(root, "workers/mcp-remote"), { recursive: true });
  copyFileSync(join(repo, ".dev.vars.example"), join(root, ".dev.vars.example"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("passes the NCBI settings from .dev.vars to the MCP worker, and later changes too", () => {
  prepareDevVars(root, generated);
  writeFileSync(
    join(root, ".dev.vars"),
    readFileSync(join(root, ".dev.vars"), "utf8") +
      "NCBI_API_KEY=ncbi-1\nNCBI_TOOL_EMAIL=me@example.com\n",
  );
  prepareDevVars(root, generated);
  expect(mcpVars()).toMatch(/^NCBI_API_KEY=ncbi-1$/m);
  expect(mcpVars()).toMatch(/^NCBI_TOOL_EMAIL=me@example\.com$/m);
  expect(mcpVars()).toMatch(/^MCP_REMOTE_TOKEN=token-1$/m);

  const edited = readFileSync(join(root, ".dev.vars"), "utf8")
    .replace("NCBI_API_KEY=ncbi-1", "NCBI_API_KEY=ncbi-2")
    .replace("NCBI_TOOL_EMAIL=me@example.com\n", "");
  writeFileSync(join(root, ".dev.vars"), edited);
  prepareDevVars(root, generated);
  expect(mcpVars()).toMatch(/^NCBI_API_KEY=ncbi-2$/m);
  expect(mcpVars()).not.toContain("NCBI_TOOL_EMAIL");
});

it("gives the MCP worker the API worker's shared secrets, replacing stale ones", () => {
  writeFileSync(join(root, "workers/mcp-remote/.dev.vars"), "MCP_REMOTE_TOKEN=old\nOTHER=kept\n");
  const vars = prepareDevVars(root, generated) as Record<string, string>;
  expect(vars.MCP_REMOTE_TOKEN).toBe("token-1");
  expect(mcpVars()).toMatch(/^MCP_REMOTE_TOKEN=token-1$/m);
  expect(mcpVars()).toMatch(/^GRAPH_CONTEXT_SECRET=ctx-1$/m);
  expect(mcpVars()).toMatch(/^OTHER=kept$/m);
  expect(mcpVars()).not.toContain("=old");
});
