// Choose the template a new conversation starts from (or none); says what the chosen one does.
import { useId } from "react";
import type { Template } from "../../../durable-objects/protocol/templates";

export function TemplatePicker(props: {
  templates: readonly Template[];
  selectedId: string;
  onSelect: (template: Template | null) => void;
}) {
  const { templates, selectedId, onSelect } = props;
  const descriptionId = useId();
  const chosen = templates.find((t) => t.id === selectedId);
  const builtins = templates.filter((t) => t.builtin);
  const own = templates.filter((t) => !t.builtin);
  const options = (list: readonly Template[]) =>
    list.map((t) => (
      <option key={t.id} value={t.id}>
        {t.name}
      </option>
    ));
  return (
    <label>
      Template
      <select
        aria-label="Template"
        aria-describedby={chosen?.description ? descriptionId : undefined}
        value={selectedId}
        onChange={(e) => onSelect(templates.find((t) => t.id === e.target.value) ?? null)}
      >
        <option value="">None</option>
        {builtins.length > 0 && <optgroup label="Built-in">{options(builtins)}</optgroup>}
        {own.length > 0 && <optgroup label="Yours">{options(own)}</optgroup>}
      </select>
      {chosen?.description && (
        <span id={descriptionId} className="muted small">
          {chosen.description}
        </span>
      )}
    </label>
  );
}
