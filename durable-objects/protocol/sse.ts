// The Server-Sent Events side of the contract: every event goes out as `id: <seq>`, and a client
// resumes with that id (the `Last-Event-ID` header, or `?after=`) to get everything after it.
import { z } from "zod";

export const LastEventId = z
  .string()
  .regex(
    /^\d{1,15}$/,
    "expected the id of an event you received (a whole number; 0 = from the start)",
  )
  .transform(Number);
