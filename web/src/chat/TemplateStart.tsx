// The starting messages of the template a conversation was made from, at its top: the model reads
// them before the conversation's own messages, so the reader sees them too. Open until the
// conversation has messages of its own, folded after.
import type { TemplateContext } from "../../../durable-objects/protocol/template-context";
import { Markdown } from "../markdown/Markdown";

export function TemplateStart(props: { template: TemplateContext; open: boolean }) {
  const { template } = props;
  if (template.messages.length === 0) return null;
  const count = template.messages.length;
  return (
    <details className="template-start" data-testid="template-start" open={props.open}>
      <summary>
        Started from the template “{template.name}”: {count} starting{" "}
        {count === 1 ? "message" : "messages"}
      </summary>
      {template.messages.map((m, i) => (
        <article key={i} className={`message ${m.role}`} data-testid={`template-message-${m.role}`}>
          {m.role === "user" ? <p className="text">{m.content}</p> : <Markdown text={m.content} />}
        </article>
      ))}
    </details>
  );
}
