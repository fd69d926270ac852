// Who gave the answer that a later one came too late for, in words for that later person: "you"
// (their own answer, from another tab or device, or over the API), or the member's name. So a
// second answer to an approval or a server's question is told who decided, not just that it lost.
import { userName } from "../../shared/db/conversation-access";

export async function answeredBy(
  db: D1Database,
  answerer: string | null,
  asker: string | undefined,
): Promise<string | null> {
  if (!answerer) return null;
  if (answerer === asker) return "you (in another tab or device, or over the API)";
  return (await userName(db, answerer).catch(() => null)) ?? "another member";
}
