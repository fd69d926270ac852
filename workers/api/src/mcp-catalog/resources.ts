// Resources of MCP servers: listed (with their templates) for the composer's resource picker,
// and read within bounds.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import type {
  McpResourceContents,
  McpResourceInfo,
  McpResourceTarget,
  McpResourceTemplateInfo,
} from "../../../../durable-objects/protocol/rest";
import { ApiError } from "../http/errors";
import { collectPages } from "./pages";

/** The most one resource may hold (text and decoded binary together). */
export const MAX_RESOURCE_BYTES = 5 * 1024 * 1024;

export async function listResources(
  client: Client,
  server: string,
  timeoutMs: number,
): Promise<{ resources: McpResourceInfo[]; templates: McpResourceTemplateInfo[] }> {
  const capabilities = client.getServerCapabilities();
  if (!capabilities?.resources) return { resources: [], templates: [] };
  const completes = !!capabilities.completions;
  const [resources, templates] = await Promise.all([
    collectPages(async (cursor) => {
      const page = await client.listResources(cursor ? { cursor } : undefined, {
        timeout: timeoutMs,
      });
      return { items: page.resources, nextCursor: page.nextCursor };
    }),
    collectPages(async (cursor) => {
      const page = await client.listResourceTemplates(cursor ? { cursor } : undefined, {
        timeout: timeoutMs,
      });
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    }),
  ]);
  return {
    resources: resources.map((r) => ({
      server,
      uri: r.uri,
      name: r.name,
      ...(r.title && { title: r.title }),
      ...(r.description && { description: r.description }),
      ...(r.mimeType && { mimeType: r.mimeType }),
      ...(r.size !== undefined && { size: r.size }),
    })),
    templates: templates.flatMap((t) => {
      const variables = templateVariables(t.uriTemplate);
      // A template we cannot expand cannot be offered.
      if (!variables) return [];
      return [
        {
          server,
          uriTemplate: t.uriTemplate,
          name: t.name,
          ...(t.title && { title: t.title }),
          ...(t.description && { description: t.description }),
          ...(t.mimeType && { mimeType: t.mimeType }),
          variables,
          completes,
        },
      ];
    }),
  };
}

function templateVariables(template: string): string[] | null {
  try {
    return new UriTemplate(template).variableNames;
  } catch {
    return null;
  }
}

/** Variables of path-like expressions: without them the URI names nothing. */
function requiredVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, operator, list] of template.matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
    if (operator === "?" || operator === "&") continue;
    for (const name of list!.split(",")) names.push(name.replace(/[*]$|:\d+$/, "").trim());
  }
  return names.filter(Boolean);
}

/** The URI a request names: as given, or its template with the variables filled in. */
export function resolveResourceUri(target: McpResourceTarget): string {
  if ("uri" in target) return target.uri;
  const variables = templateVariables(target.uriTemplate);
  if (!variables)
    throw new ApiError(400, "validation_failed", `'${target.uriTemplate}' is not a URI template.`);
  const missing = requiredVariables(target.uriTemplate).filter(
    (name) => !target.variables[name]?.trim(),
  );
  if (missing.length > 0)
    throw new ApiError(
      400,
      "validation_failed",
      `Fill in ${missing.map((m) => `'${m}'`).join(", ")} to read ${target.uriTemplate}.`,
    );
  const unknown = Object.keys(target.variables).filter((name) => !variables.includes(name));
  if (unknown.length > 0)
    throw new ApiError(
      400,
      "validation_failed",
      `${target.uriTemplate} has no variable ${unknown.map((u) => `'${u}'`).join(", ")}; it has ${variables.map((v) => `'${v}'`).join(", ")}.`,
    );
  return new UriTemplate(target.uriTemplate).expand(target.variables);
}

export async function readResource(
  client: Client,
  server: string,
  uri: string,
  timeoutMs: number,
): Promise<McpResourceContents> {
  const result = await client.readResource({ uri }, { timeout: timeoutMs });
  let bytes = 0;
  const contents: McpResourceContents["contents"] = [];
  for (const c of result.contents) {
    const base = { uri: c.uri, ...(c.mimeType && { mimeType: c.mimeType }) };
    if ("text" in c && typeof c.text === "string") {
      bytes += c.text.length;
      contents.push({ ...base, text: c.text });
    } else if ("blob" in c && typeof c.blob === "string") {
      bytes += Math.floor((c.blob.length * 3) / 4);
      contents.push({ ...base, blob: c.blob });
    }
    if (bytes > MAX_RESOURCE_BYTES)
      throw new ApiError(
        502,
        "upstream_failed",
        `The resource ${uri} of '${server}' is larger than ${MAX_RESOURCE_BYTES / 1024 / 1024} MB, the most this app reads from a resource.`,
      );
  }
  return { server, uri, contents };
}
