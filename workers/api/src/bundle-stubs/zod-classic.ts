// zod's classic API (node_modules/zod/v4/classic/external.js) without `locales`, and with a
// stand-in for `fromJSONSchema` (below); see zod.ts.
// Imported by file path: zod's exports map does not name these files, and a path is not aliased.
export * as core from "./zod-core";
export * from "../../../../node_modules/zod/v4/classic/schemas.js";
export * from "../../../../node_modules/zod/v4/classic/checks.js";
export * from "../../../../node_modules/zod/v4/classic/errors.js";
export * from "../../../../node_modules/zod/v4/classic/parse.js";
export * from "../../../../node_modules/zod/v4/classic/compat.js";
export {
  globalRegistry,
  registry,
  config,
  memoizer,
  $output,
  $input,
  $brand,
  clone,
  regexes,
  treeifyError,
  prettifyError,
  formatError,
  flattenError,
  TimePrecision,
  util,
  NEVER,
  INVALID,
  toZod,
  compile,
  withParser,
  ZodCompileAsyncError,
  ZodCompileUnsupportedError,
  getDiscriminatedOption,
} from "./zod-core";
export { toJSONSchema } from "../../../../node_modules/zod/v4/core/json-schema-processors.js";
export { deepPartial } from "../../../../node_modules/zod/v4/classic/deep-partial.js";
export { input, output } from "../../../../node_modules/zod/v4/classic/in-out.js";
export {
  ZodISODateTime,
  ZodISODate,
  ZodISOTime,
  ZodISODuration,
} from "../../../../node_modules/zod/v4/classic/iso.js";
export * as iso from "../../../../node_modules/zod/v4/classic/iso.js";
export * as coerce from "../../../../node_modules/zod/v4/classic/coerce.js";

/**
 * A stand-in: zod's JSON Schema → zod converter copies every zod schema class as its module
 * loads (about 2 ms of each start-up), and nothing in this worker converts JSON Schema to zod.
 * `agents` calls it only for the tools of its own MCP client, which this app does not use (MCP
 * goes through durable-objects/mcp/).
 */
export function fromJSONSchema(): never {
  throw new Error(
    "z.fromJSONSchema is not bundled in the API worker (workers/api/src/bundle-stubs/zod-classic.ts): convert JSON Schema with @cfworker/json-schema, or export zod's own from that file if a feature needs it.",
  );
}
