// Why a tool call failed, in a sentence for the user and the model: the errors the MCP SDK throws
// are written for developers (a malformed result, for one, is the schema check's JSON dump).
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { CeilingReached } from "./call-clock";
import { isConnectionLost, unreadableAnswer } from "./response-streams";

/**
 * `refused`: the server answered with a JSON-RPC error saying the request itself was wrong (an
 * unknown tool, invalid arguments): the server works, the caller should change the request.
 * `needs_page`: the server answered that the user must open a page of its own first (-32042); a
 * turn asks them and calls again (conversation/link-required.ts), so this is what is left when
 * that could not help.
 */
export type CallFailure =
  "connection_lost" | "malformed_result" | "refused" | "needs_page" | "other";

/** JSON-RPC errors that blame the request, not the server. */
const REQUEST_ERRORS: ReadonlySet<number> = new Set([
  ErrorCode.InvalidRequest,
  ErrorCode.MethodNotFound,
  ErrorCode.InvalidParams,
]);

interface Issue {
  code?: string;
  expected?: string;
  path: PropertyKey[];
  message: string;
}

/** The issues of a failed schema check (zod's error), or null for any other error. */
function schemaIssues(err: unknown): Issue[] | null {
  const issues = (err as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return null;
  const ok = issues.every(
    (i: Partial<Issue> | null) => !!i && Array.isArray(i.path) && typeof i.message === "string",
  );
  return ok ? (issues as Issue[]) : null;
}

const withArticle = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

function pathText(path: PropertyKey[]): string {
  let text = "";
  for (const p of path) text += typeof p === "number" ? `[${p}]` : `${text ? "." : ""}${String(p)}`;
  return text;
}

function issueText(issue: Issue): string {
  const where = issue.path.length > 0 ? `\`${pathText(issue.path)}\`` : "the result";
  if (issue.code === "invalid_type" && issue.expected) {
    const received = /received (\w+)/.exec(issue.message)?.[1];
    const was =
      received === "undefined"
        ? " (it was missing)"
        : received
          ? ` (it was ${withArticle(received)})`
          : "";
    return `${where} must be ${withArticle(issue.expected)}${was}`;
  }
  return `${where}: ${issue.message.replace(/^Invalid input: /, "")}`;
}

const NOT_REPEATED = " The call was not repeated, since it may have done part of its work.";

/**
 * What went wrong with a call, and a sentence that says it (without the server's name). `listing`:
 * the request listed tools (or opened the session), so there is no call to speak of.
 */
export function describeCallError(
  err: unknown,
  listing = false,
): { failure: CallFailure; message: string } {
  const notRepeated = listing ? "" : NOT_REPEATED;
  const unreadable = unreadableAnswer(err);
  if (unreadable !== null)
    return {
      failure: "malformed_result",
      message: `the server's answer could not be read: ${unreadable}.${notRepeated}`,
    };
  // A body sent as JSON that is not (the SDK's response.json() throws it as it is).
  if (err instanceof SyntaxError)
    return {
      failure: "malformed_result",
      message: `the server's answer could not be read: it was sent as JSON but is not (${err.message}).${notRepeated}`,
    };
  if (isConnectionLost(err))
    return {
      failure: "connection_lost",
      message: listing
        ? "the connection to the server was lost before it answered."
        : `the connection to the server was lost during the call, before it answered.${NOT_REPEATED}`,
    };
  const issues = schemaIssues(err);
  if (issues) {
    const shown = issues.slice(0, 3).map(issueText);
    const more = issues.length > 3 ? `; and ${issues.length - 3} more problems` : "";
    return {
      failure: "malformed_result",
      message: `the server sent a malformed result: ${shown.join("; ")}${more}.`,
    };
  }
  if (err instanceof McpError && err.code === ErrorCode.UrlElicitationRequired)
    return {
      failure: "needs_page",
      message: `the server needs the user to open a page of its own first: ${serverWords(err)}.`,
    };
  if (err instanceof McpError && REQUEST_ERRORS.has(err.code))
    return {
      failure: "refused",
      message: `the server refused the ${listing ? "request" : "call"}: ${serverWords(err)}.`,
    };
  if (err instanceof StreamableHTTPError && (err.code ?? 0) > 0)
    return { failure: "other", message: httpFailure(err) };
  return { failure: "other", message: err instanceof Error ? err.message : String(err) };
}

/**
 * "the server answered HTTP 502", with its words when they are short plain text: the SDK's
 * "Streamable HTTP error: Error POSTing to endpoint: <html>…" named no status at all.
 */
function httpFailure(err: StreamableHTTPError): string {
  const text = err.message
    .replace(/^Streamable HTTP error: /, "")
    .replace(/^Error POSTing to endpoint:\s*/, "")
    .trim();
  const plain = text && !/^</.test(text) && text.length <= 200;
  return `the server answered HTTP ${err.code}${plain ? `: ${text.replace(/\.$/, "")}` : ""}.`;
}

/** The SDK's message starts "MCP error -32602: "; the server's own words are what help. */
const serverWords = (err: McpError) =>
  err.message.replace(/^MCP error -?\d+: /, "").replace(/\.$/, "");

/**
 * Whether a failed call counts toward its server's failure limit. Not when the server answered
 * that the request was wrong (the model's arguments, an unknown tool) or that the user must open
 * a page first, nor when the tool kept working past its ceiling: the server is up. Whatever else
 * fails (no connection, a lost one, a silent server, an answer that is not a valid MCP result) is
 * the server's fault.
 */
export function isServerFault(err: unknown): boolean {
  if (err instanceof CeilingReached) return false;
  const { failure } = describeCallError(err);
  return failure !== "refused" && failure !== "needs_page";
}

/** Longest cause `failureCause` gives: the notices that repeat it are one line each. */
const MAX_CAUSE = 80;

/**
 * A server's failure in a few words ("HTTP 502", "timed out after 30 s", "connection lost"), for
 * the notices that say why it is skipped. `timeoutMs`: how long the request could go unanswered.
 */
export function failureCause(err: unknown, timeoutMs: number): string {
  if (err instanceof StreamableHTTPError && (err.code ?? 0) > 0) return `HTTP ${err.code}`;
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
    return `timed out after ${Math.round(timeoutMs / 1000)} s`;
  if (isConnectionLost(err) && unreadableAnswer(err) === null) return "connection lost";
  const { message } = describeCallError(err, true);
  const words = message
    .replace(/^the server sent /, "")
    .replace(/^the server's answer could not be read/, "an unreadable answer")
    .replace(/^(MCP error -?\d+|Streamable HTTP error): /, "")
    .replace(/\.$/, "");
  return words.length <= MAX_CAUSE ? words : `${words.slice(0, MAX_CAUSE - 1).trimEnd()}…`;
}
