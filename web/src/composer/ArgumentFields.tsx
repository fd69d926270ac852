// Text fields for a prompt's arguments or a resource template's variables, with suggestions from
// the server's completion/complete as the user types (where the server offers it).
import { useEffect, useRef, useState } from "react";

export interface ArgumentField {
  name: string;
  description?: string | undefined;
  required?: boolean | undefined;
}

/** Asks the server for values of `name` starting with `value`, given the other fields. */
export type Suggest = (
  name: string,
  value: string,
  context: Record<string, string>,
) => Promise<string[]>;

const SUGGEST_DELAY_MS = 150;

export function ArgumentFields(props: {
  idPrefix: string;
  fields: readonly ArgumentField[];
  values: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
  suggest?: Suggest | undefined;
}) {
  const { fields, values, onChange, suggest } = props;
  const [suggestions, setSuggestions] = useState<{ field: string; values: string[] } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Answers that arrive after the user moved on are dropped.
  const latest = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);

  const ask = (field: string, value: string, all: Record<string, string>) => {
    if (!suggest) return;
    clearTimeout(timer.current);
    const ticket = ++latest.current;
    timer.current = setTimeout(() => {
      const context = Object.fromEntries(
        Object.entries(all).filter(([k, v]) => k !== field && v.trim()),
      );
      suggest(field, value, context).then(
        (found) => {
          if (ticket === latest.current) setSuggestions({ field, values: found });
        },
        () => undefined,
      );
    }, SUGGEST_DELAY_MS);
  };

  const set = (field: string, value: string) => {
    const next = { ...values, [field]: value };
    onChange(next);
    ask(field, value, next);
  };

  return (
    <>
      {fields.map((f) => {
        const id = `${props.idPrefix}-${f.name}`;
        const shown = suggestions?.field === f.name ? suggestions.values : [];
        return (
          <div key={f.name} className="argument-field">
            <label htmlFor={id}>
              {f.name}
              {f.required && <span aria-label="required"> *</span>}
            </label>
            <input
              id={id}
              value={values[f.name] ?? ""}
              required={!!f.required}
              autoComplete="off"
              onChange={(e) => set(f.name, e.target.value)}
              onFocus={(e) => ask(f.name, e.target.value, values)}
            />
            {f.description && <p className="muted small">{f.description}</p>}
            {shown.length > 0 && (
              <ul className="suggestions" aria-label={`Suggestions for ${f.name}`}>
                {shown.map((v) => (
                  <li key={v}>
                    <button
                      type="button"
                      onClick={() => {
                        setSuggestions(null);
                        set(f.name, v);
                      }}
                    >
                      {v}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </>
  );
}

/** The names of required fields left empty, for a message that says what to fill in. */
export function missingFields(
  fields: readonly ArgumentField[],
  values: Record<string, string>,
): string[] {
  return fields.filter((f) => f.required && !values[f.name]?.trim()).map((f) => f.name);
}
