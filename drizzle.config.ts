import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./shared/db/schema.ts", "./workers/mcp-remote/src/graph/schema.ts"],
  out: "./migrations",
});
