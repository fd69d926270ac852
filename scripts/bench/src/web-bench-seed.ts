// Writes conversations for the web bench through the real API and socket, as a browser would.
import type { Stack } from "../../../tests/e2e/stack";

export async function createConversation(
  stack: Stack,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { id: string }).id;
}

/** Sends each text as a user message and resolves once every turn has ended. */
export async function sendAll(stack: Stack, id: string, texts: readonly string[]): Promise<void> {
  // Scripts open the socket with a short-lived ticket, as the browser does.
  const ticket = await fetch(`${stack.url}/api/conversations/${id}/ws-ticket`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}` },
  });
  const { ticket: wsTicket } = (await ticket.json()) as { ticket: string };
  const ws = new WebSocket(
    `${stack.url.replace("http", "ws")}/api/conversations/${id}/ws?ticket=${encodeURIComponent(wsTicket)}`,
  );
  await new Promise((r) => ws.addEventListener("open", r));
  ws.send(JSON.stringify({ type: "resume", lastSeq: 0 }));
  let ended = 0;
  const progress = setInterval(() => console.log(`  seeding: ${ended} turns ended`), 30_000);
  const allEnded = new Promise<void>((resolve, reject) =>
    ws.addEventListener("message", (m) => {
      const data = String(m.data);
      if (data.includes('"type":"frame_error"')) reject(new Error(`seeding refused: ${data}`));
      // A frame may carry several events.
      ended += data.match(/"type":"turn_(ended|failed)"/g)?.length ?? 0;
      if (ended >= texts.length) resolve();
    }),
  );
  texts.forEach((text, i) =>
    ws.send(JSON.stringify({ type: "send", clientMessageId: `q${i}`, text })),
  );
  try {
    await allEnded;
  } finally {
    clearInterval(progress);
    ws.close();
  }
}
