// Tokens and cost of one answer (live while it streams) or of the whole conversation.
import type { UsageTotals } from "../../../durable-objects/protocol/usage";
import { usageWords } from "./usage-words";

export function UsageMeter(props: { usage: UsageTotals; label: string; live?: boolean }) {
  return (
    <p
      className="usage-meter muted small"
      data-testid="usage-meter"
      {...(props.live && { role: "status", "aria-live": "polite" })}
      title={`${props.usage.calls} model call${props.usage.calls === 1 ? "" : "s"}`}
    >
      {props.label}: {usageWords(props.usage)}
    </p>
  );
}
