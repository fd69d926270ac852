// The `/` picker: the prompts of the conversation's MCP servers, filtered by what follows the
// slash. The composer's text field keeps the focus and moves the highlight (combobox pattern).
import type { McpPromptInfo } from "../../../durable-objects/protocol/rest";

export const PROMPT_PICKER_ID = "prompt-picker";
export const optionId = (i: number) => `${PROMPT_PICKER_ID}-option-${i}`;

/** What the user typed after a leading slash, or null when the draft is not a prompt query. */
export function promptQuery(draft: string): string | null {
  const match = /^\/(\S*)$/.exec(draft);
  return match ? match[1]! : null;
}

/** Prompts whose name, title or server contain the query; names that start with it first. */
export function matchPrompts(prompts: readonly McpPromptInfo[], query: string): McpPromptInfo[] {
  const q = query.toLowerCase();
  const hits = prompts.filter((p) =>
    [p.name, p.title ?? "", p.server].some((s) => s.toLowerCase().includes(q)),
  );
  const starts = (p: McpPromptInfo) => (p.name.toLowerCase().startsWith(q) ? 0 : 1);
  return hits.sort((a, b) => starts(a) - starts(b));
}

export function PromptPicker(props: {
  items: readonly McpPromptInfo[];
  highlighted: number;
  status: string | null;
  onChoose: (prompt: McpPromptInfo) => void;
  onHighlight: (index: number) => void;
}) {
  return (
    <div className="prompt-picker">
      {props.status && <p className="muted small picker-status">{props.status}</p>}
      <ul id={PROMPT_PICKER_ID} role="listbox" aria-label="Prompts of your MCP servers">
        {props.items.map((p, i) => (
          <li
            key={`${p.server}/${p.name}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === props.highlighted}
            className={i === props.highlighted ? "highlighted" : undefined}
            // Chosen on mouse down, before the text field loses the focus.
            onMouseDown={(e) => {
              e.preventDefault();
              props.onChoose(p);
            }}
            onMouseEnter={() => props.onHighlight(i)}
          >
            <span className="prompt-name">/{p.name}</span>
            <span className="prompt-server muted small">{p.server}</span>
            {(p.description ?? p.title) && (
              <span className="prompt-description muted small">{p.description ?? p.title}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
