// The expiry of an approval is an agents schedule (`expireApproval` at its expiresAt). Once the
// approval is answered another way, its schedule is dropped: it would only wake the object to
// find the approval decided.
import { z } from "zod";

/** The part of the agents Agent this needs (its schedule API). */
export interface ScheduleHost {
  listSchedules(criteria?: {
    type?: "scheduled";
  }): Promise<{ id: string; callback: string; payload: unknown }[]>;
  cancelSchedule(id: string): Promise<boolean>;
}

export const EXPIRY_CALLBACK = "expireApproval";

const ExpiryPayload = z.object({ approvalId: z.string() });

/** Cancels the expiry schedules of these approvals; those already run or gone are skipped. */
export async function cancelApprovalExpiries(
  host: ScheduleHost,
  approvalIds: readonly string[],
): Promise<void> {
  if (approvalIds.length === 0) return;
  const wanted = new Set(approvalIds);
  for (const s of await host.listSchedules({ type: "scheduled" })) {
    const payload = ExpiryPayload.safeParse(s.payload);
    if (s.callback === EXPIRY_CALLBACK && payload.success && wanted.has(payload.data.approvalId))
      await host.cancelSchedule(s.id);
  }
}
