// A server's whole tool list, page by page, and the check of a tool's result against the output
// schema it declares. Both are ours rather than the SDK's: the SDK checks results only against the
// tools of its own latest listTools page, so a tool on an earlier page, or one from a catalog kept
// from an earlier session, went unchecked while the same tool on the last page was refused.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ListToolsResultSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";

/** More pages than any real server sends: past it the list is taken for one that never ends. */
export const MAX_TOOL_PAGES = 50;

/**
 * Every page of the server's tools, each name once (pages that overlap would otherwise name a
 * tool twice to the model, and providers refuse such a request). A server whose pages never end
 * (a cursor it already sent, or more than MAX_TOOL_PAGES pages) is refused with a sentence saying
 * so, instead of being asked for ever while the turn waits.
 */
export async function listAllTools(client: Client, timeoutMs: number): Promise<Tool[]> {
  const tools = new Map<string, Tool>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await client.request(
      { method: "tools/list", ...(cursor !== undefined && { params: { cursor } }) },
      ListToolsResultSchema,
      { timeout: timeoutMs },
    );
    for (const t of result.tools) if (!tools.has(t.name)) tools.set(t.name, t);
    cursor = result.nextCursor;
    if (!cursor) return [...tools.values()];
    if (cursors.has(cursor))
      throw new Error(
        `its tool list never ends: page ${page + 1} would be a page it already sent (cursor "${cursor.slice(0, 40)}"). The server's pagination needs a fix`,
      );
    if (page >= MAX_TOOL_PAGES)
      throw new Error(
        `its tool list goes on past ${MAX_TOOL_PAGES} pages, so it was not read to the end. The server's pagination needs a fix`,
      );
    cursors.add(cursor);
  }
}

const validator = new CfWorkerJsonSchemaValidator();

/** The validator's "#/a/b: Instance type …" lines as "`a.b` must be a number (it was a string)". */
function readable(errorMessage: string): string {
  const parts = errorMessage
    .split("; ")
    .filter((p) => !/does not match schema\.?$/.test(p))
    .map((p) => {
      const at = /^#\/?([^:]*): (.*)$/.exec(p);
      const where = at?.[1] ? `\`${at[1].split("/").join(".")}\`` : "the content";
      const what = (at?.[2] ?? p).replace(/\.$/, "");
      const type = /^Instance type "(\w+)" is invalid\. Expected "(\w+)"/.exec(what);
      if (type)
        return `${where} must be ${withArticle(type[2]!)} (it was ${withArticle(type[1]!)})`;
      const missing = /^Instance does not have required property "(.+)"/.exec(what);
      const path = at?.[1] ? `${at[1].split("/").join(".")}.` : "";
      if (missing) return `\`${path}${missing[1]}\` is missing`;
      return `${where}: ${what}`;
    });
  return parts.slice(0, 3).join("; ") + (parts.length > 3 ? `; and ${parts.length - 3} more` : "");
}

const withArticle = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

/**
 * Why a result does not keep to its tool's output schema, or null when it does (or the tool
 * declares none, or the result is an error, which the schema does not cover).
 */
export function outputSchemaProblem(
  tool: Pick<Tool, "outputSchema"> | undefined,
  result: object,
): string | null {
  const { structuredContent, isError } = result as {
    structuredContent?: unknown;
    isError?: unknown;
  };
  if (!tool?.outputSchema || isError === true) return null;
  if (structuredContent === undefined)
    return "the tool declares an output schema, but its result has no structured content";
  const check = validator.getValidator(tool.outputSchema)(structuredContent);
  return check.valid
    ? null
    : `its structured content does not match the tool's output schema (${readable(check.errorMessage ?? "")})`;
}
