// A question an MCP server asks during one of its tool calls. Form mode: a form built from the
// requested schema, checked here before it is sent (the server side checks again), with Accept /
// Decline / Cancel. URL mode: the page's address with its host set apart (so a look-alike link is
// easy to spot), Open, then Done / Decline / Cancel. Shown in every tab; once answered anywhere
// (or timed out, or withdrawn) it says how, and by whom. A viewer sees the question, not the form.
import { useMemo, useRef, useState } from "react";
import { startLinkToken } from "../start-link";
import {
  checkContent,
  type ElicitationAnswer,
} from "../../../durable-objects/protocol/elicitation";
import type { ElicitationView } from "../../../durable-objects/protocol/transcript";
import { type Answerer, SOLE_OWNER } from "../sharing/answerer";
import {
  fieldsOf,
  type FormField,
  type FormValues,
  initialValues,
  toContent,
} from "./elicitation-form";

export function ElicitationCard(props: {
  elicitation: ElicitationView;
  /** False when the answer could not be sent (offline): the buttons stay usable. */
  onAnswer?: (elicitationId: string, answer: ElicitationAnswer) => boolean | undefined;
  /** Who looks at the card (shared conversations); the owner alone when left out. */
  answerer?: Answerer;
}) {
  const { elicitation: e, onAnswer } = props;
  const answerer = props.answerer ?? SOLE_OWNER;
  const [sent, setSent] = useState(false);
  const card = useRef<HTMLElement>(null);
  const send = (answer: ElicitationAnswer) => {
    const delivered = onAnswer?.(e.elicitationId, answer) !== false;
    setSent(delivered);
    // The form goes once it is sent: the card keeps the focus, and then says how it was answered.
    if (delivered) card.current?.focus();
  };
  return (
    <section
      ref={card}
      tabIndex={-1}
      className={`elicitation-card ${e.answered ? e.answered.action : "pending"}`}
      data-testid="elicitation-card"
      aria-label={`Question from ${e.server}`}
    >
      <p className="small">
        <span className="tool-server">{e.server}</span> · <strong>{e.tool}</strong> asks:
      </p>
      <p>{e.message}</p>
      {e.answered ? (
        <p className="muted small" role="status">
          {answerWords(e.answered, answerer)}
        </p>
      ) : answerer.role === "viewer" ? (
        <p className="muted small" role="status">
          Waiting for the owner or a participant to answer: as a viewer you cannot.
        </p>
      ) : e.mode === "url" ? (
        <LinkQuestion url={e.url ?? ""} disabled={sent} onAnswer={send} />
      ) : e.requestedSchema ? (
        <FormQuestion elicitation={e} disabled={sent} onAnswer={send} />
      ) : null}
      {!e.answered && (
        <p className="muted small">
          The tool waits until {new Date(e.expiresAt).toLocaleTimeString()}, then goes on without an
          answer.
        </p>
      )}
    </section>
  );
}

function FormQuestion(props: {
  elicitation: ElicitationView;
  disabled: boolean;
  onAnswer: (a: ElicitationAnswer) => void;
}) {
  const schema = props.elicitation.requestedSchema!;
  const fields = useMemo(() => fieldsOf(schema), [schema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(schema));
  const [problems, setProblems] = useState<string[]>([]);
  const set = (name: string, v: FormValues[string]) => setValues((old) => ({ ...old, [name]: v }));
  const accept = () => {
    const checked = checkContent(schema, toContent(fields, values));
    if (!checked.ok) return setProblems(checked.problems);
    setProblems([]);
    props.onAnswer({ action: "accept", content: checked.content });
  };
  return (
    <form
      className="elicitation-form"
      noValidate
      onSubmit={(ev) => {
        ev.preventDefault();
        accept();
      }}
    >
      {fields.map((f) => (
        <Field key={f.name} field={f} value={values[f.name]} onChange={(v) => set(f.name, v)} />
      ))}
      {problems.length > 0 && (
        <ul className="elicitation-problems" role="alert">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <Buttons disabled={props.disabled} acceptLabel="Accept" onAnswer={props.onAnswer} submit />
    </form>
  );
}

function Field(props: {
  field: FormField;
  value: FormValues[string] | undefined;
  onChange: (v: FormValues[string]) => void;
}) {
  const { field: f, value, onChange } = props;
  const id = `elicit-${f.name}`;
  const label = (
    <>
      {f.label}
      {f.required && <span aria-hidden="true"> *</span>}
      {f.description && <span className="muted small"> — {f.description}</span>}
    </>
  );
  if (f.kind === "boolean")
    return (
      <label className="elicitation-field">
        <input
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />{" "}
        {label}
      </label>
    );
  if (f.kind === "multi") {
    const picked = Array.isArray(value) ? value : [];
    return (
      <fieldset className="elicitation-field">
        <legend>{label}</legend>
        {f.choices?.map((c) => (
          <label key={c.value}>
            <input
              type="checkbox"
              checked={picked.includes(c.value)}
              onChange={(e) =>
                onChange(
                  e.target.checked ? [...picked, c.value] : picked.filter((p) => p !== c.value),
                )
              }
            />{" "}
            {c.label}
          </label>
        ))}
      </fieldset>
    );
  }
  const text = typeof value === "string" ? value : "";
  if (f.kind === "choice")
    return (
      <label className="elicitation-field" htmlFor={id}>
        {label}
        <select
          id={id}
          value={text}
          required={f.required}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">{f.required ? "Choose…" : "(none)"}</option>
          {f.choices?.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
    );
  const numeric = f.kind === "number" || f.kind === "integer";
  return (
    <label className="elicitation-field" htmlFor={id}>
      {label}
      <input
        id={id}
        type={INPUT_TYPES[f.kind]}
        value={text}
        required={f.required}
        {...(numeric
          ? { min: f.min, max: f.max, step: f.kind === "integer" ? 1 : "any" }
          : { minLength: f.min, maxLength: f.max })}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

const INPUT_TYPES: Record<string, string> = {
  text: "text",
  email: "email",
  url: "url",
  date: "date",
  datetime: "datetime-local",
  number: "number",
  integer: "number",
};

function LinkQuestion(props: {
  url: string;
  disabled: boolean;
  onAnswer: (a: ElicitationAnswer) => void;
}) {
  const target = webAddress(props.url);
  if (!target) return <p className="muted small">The server sent a link that cannot be opened.</p>;
  return (
    <div className="elicitation-link">
      <p>
        Opens a page on <strong className="elicitation-host">{target.host}</strong>
      </p>
      <p className="small tool-json">{target.href}</p>
      <a className="artifact-button" href={target.href} target="_blank" rel="noopener noreferrer">
        Open
      </a>
      <Buttons disabled={props.disabled} acceptLabel="Done" onAnswer={props.onAnswer} />
    </div>
  );
}

function Buttons(props: {
  disabled: boolean;
  acceptLabel: string;
  onAnswer: (a: ElicitationAnswer) => void;
  /** The accept button submits the surrounding form (which checks the values first). */
  submit?: boolean;
}) {
  return (
    <div className="approval-buttons">
      <button
        type={props.submit ? "submit" : "button"}
        disabled={props.disabled}
        {...(!props.submit && { onClick: () => props.onAnswer({ action: "accept" }) })}
      >
        {props.acceptLabel}
      </button>
      <button
        type="button"
        disabled={props.disabled}
        onClick={() => props.onAnswer({ action: "decline" })}
      >
        Decline
      </button>
      <button
        type="button"
        disabled={props.disabled}
        onClick={() => props.onAnswer({ action: "cancel" })}
      >
        Cancel
      </button>
    </div>
  );
}

/** Only http and https pages open; anything else (javascript:, data:, file:) is refused. */
export function webAddress(url: string): URL | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  // A start link would sign the user in to the account of the token it carries.
  if (startLinkToken(parsed.hash)) return null;
  return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed : null;
}

function answerWords(a: NonNullable<ElicitationView["answered"]>, answerer: Answerer): string {
  const when = new Date(a.at).toLocaleString();
  switch (a.via) {
    case "timeout":
      return `Nobody answered in time; the server was told the question was cancelled (${when}).`;
    case "cancel":
      return `Withdrawn: the tool call ended before an answer (${when}).`;
    case "restart":
      return `Withdrawn: the service restarted and the tool call was lost (${when}).`;
    case "server":
      return `The server reported the page finished (${when}).`;
    default: {
      const how = a.via === "rest" ? "API" : "app";
      const what = { accept: "Answered", decline: "Declined", cancel: "Cancelled" }[a.action];
      return `${what} by ${answerer.nameOf(a.userId)} (${how}, ${when}).`;
    }
  }
}
