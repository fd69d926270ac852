// One turn over a real WebSocket, as a client on another origin opens it (a ticket first): the
// events it received, from the conversation's start to the turn's end.
import { ServerFrame, isServerEvent, type ServerEvent } from "../../durable-objects/protocol/wire";
import type { Stack } from "./stack";

export async function socketTurn(
  stack: Pick<Stack, "url" | "token">,
  conversationId: string,
  text: string,
  clientMessageId: string = crypto.randomUUID(),
): Promise<ServerEvent[]> {
  const auth = { authorization: `Bearer ${stack.token}` };
  const ticket = (await (
    await fetch(`${stack.url}/api/conversations/${conversationId}/ws-ticket`, {
      method: "POST",
      headers: auth,
    })
  ).json()) as { ticket: string };
  const ws = new WebSocket(
    `${stack.url.replace("http", "ws")}/api/conversations/${conversationId}/ws?ticket=${encodeURIComponent(ticket.ticket)}`,
  );
  const events: ServerEvent[] = [];
  const done = new Promise<void>((resolve, reject) => {
    ws.addEventListener("message", (m) => {
      const frame = ServerFrame.parse(JSON.parse(String(m.data)));
      if (isServerEvent(frame)) events.push(frame);
      if (frame.type === "turn_ended" || frame.type === "turn_failed") resolve();
    });
    ws.addEventListener("error", () => reject(new Error("websocket error")));
  });
  await new Promise((r) => ws.addEventListener("open", r));
  ws.send(JSON.stringify({ type: "resume", lastSeq: 0 }));
  ws.send(JSON.stringify({ type: "send", clientMessageId, text }));
  await done;
  ws.close();
  return events;
}
