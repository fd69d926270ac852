import { Agent } from "agents";
import type { Env } from "../../workers/api/src/env";

export class Conversation extends Agent<Env> {
  override onRequest(): Response {
    return Response.json({ ok: true });
  }
}
