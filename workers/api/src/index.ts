import { Hono } from "hono";
import type { Env } from "./env";

export { Conversation } from "../../../durable-objects/conversation/conversation";

const app = new Hono<{ Bindings: Env }>();
app.get("/api/health", (c) => c.json({ ok: true }));

export default app;
