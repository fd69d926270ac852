// Which kind of deployment this is: "development" allows the conveniences of a local run
// (built-in signing key on localhost, http:// MCP servers on loopback, our own rate counters).
import type { Env } from "./env";

export const isDevelopment = (env: Pick<Env, "APP_ENV">) => env.APP_ENV === "development";
