// A page of replayed events as one `replay` frame. The log keeps each event as its JSON text, so
// the frame is put together from those texts without parsing or encoding them again.
import type { ServerControl } from "../protocol/wire";

const REPLAY_TYPE: Extract<ServerControl, { type: "replay" }>["type"] = "replay";

export const replayFrame = (events: ReadonlyArray<{ body: string }>): string =>
  `{"type":"${REPLAY_TYPE}","events":[${events.map((e) => e.body).join(",")}]}`;
