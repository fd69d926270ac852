// Our own modal dialogs, in place of the browser's prompt/confirm: they name what an action
// touches, match the app's look, and work by keyboard (the native <dialog> traps focus in the
// page's top layer, Escape cancels, focus returns to what opened it).
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import "./dialog.css";

interface DialogFrameProps {
  title: string;
  onCancel: () => void;
  onSubmit: () => Promise<void>;
  submitLabel: string;
  danger?: boolean;
  children: ReactNode;
}

/** The shared frame: a modal form whose submit runs an action and shows its failure in words. */
export function DialogFrame(props: DialogFrameProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { onCancel } = props;

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
      // The opener may be gone (a deleted row); then focus stays where the page puts it.
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await props.onSubmit();
    } catch (err) {
      setProblem(err instanceof Error ? err.message : "That did not work. Try again.");
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="app-dialog"
      aria-labelledby={titleId}
      onKeyDown={(e) => {
        // Escape closes this dialog only, not a panel underneath that listens for it too.
        if (e.key !== "Escape") return;
        e.preventDefault();
        e.stopPropagation();
        if (!busy) onCancel();
      }}
      onCancel={(e) => {
        // Other close requests: we close it ourselves so React's state stays the one truth.
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <form method="dialog" onSubmit={submit}>
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        {problem && (
          <p role="alert" className="error small">
            {problem}
          </p>
        )}
        <div className="app-dialog-actions">
          <button type="button" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className={props.danger ? "danger" : "primary"} disabled={busy}>
            {props.submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** Asks before a destructive action; `message` names what is removed. */
export function ConfirmDialog(props: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  onCancel: () => void;
}) {
  return (
    <DialogFrame
      title={props.title}
      submitLabel={props.confirmLabel}
      danger
      onSubmit={props.onConfirm}
      onCancel={props.onCancel}
    >
      <p>{props.message}</p>
    </DialogFrame>
  );
}

/** Asks for one line of text (a new title); `problemOf` says what is wrong with it, or null. */
export function TextDialog(props: {
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  problemOf: (value: string) => string | null;
  onSubmit: (value: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(props.initial);
  const inputId = useId();
  return (
    <DialogFrame
      title={props.title}
      submitLabel={props.submitLabel}
      onCancel={props.onCancel}
      onSubmit={async () => {
        const problem = props.problemOf(value.trim());
        if (problem) throw new Error(problem);
        await props.onSubmit(value.trim());
      }}
    >
      <label htmlFor={inputId}>{props.label}</label>
      <input
        id={inputId}
        value={value}
        autoFocus
        autoComplete="off"
        onChange={(e) => setValue(e.target.value)}
        onFocus={(e) => e.currentTarget.select()}
      />
    </DialogFrame>
  );
}
