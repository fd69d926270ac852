// The message box: text, prompts of the MCP servers behind a leading `/`, resources attached
// to the next message, and files (picker, drag and drop, paste) uploaded as attachments. What is
// sent is exactly what the composer shows.
import {
  type ClipboardEvent,
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import {
  type Artifact,
  MAX_INLINE_RESOURCE_CHARS,
  type McpAttachment,
  type McpPromptInfo,
  type McpPromptList,
  type McpPromptResult,
} from "../../../durable-objects/protocol/rest";
import { MAX_MESSAGE_CHARS } from "../../../durable-objects/protocol/wire";
import { ApiFailure } from "../api";
import { artifactApi } from "../artifacts/artifact-api";
import { AttachmentChips } from "./attachments/AttachmentChips";
import { ACCEPTED_FILES, pastedFiles } from "./attachments/dropped-files";
import { type AttachmentUploader, attachmentUploader } from "./attachments/upload-attachment";
import { draftFilesOf, draftOf, keepDraft, keepDraftFiles, tabStore } from "./draft-store";
import { useAttachmentDrafts } from "./attachments/use-attachment-drafts";
import { useFileDrop } from "./attachments/use-file-drop";
import { heldDropsNote, useHeldDrops } from "./attachments/use-held-drops";
import { usePageDropGuard } from "./attachments/use-page-drop-guard";
import { type CatalogApi, catalogApi } from "./catalog-api";
import { PromptForm } from "./PromptForm";
import {
  matchPrompts,
  optionId,
  PROMPT_PICKER_ID,
  PromptPicker,
  promptQuery,
} from "./PromptPicker";
import { ResourcePicker } from "./ResourcePicker";
import "./composer.css";

/** The message as sent: the typed text, then each attachment's text. */
export function messageText(draft: string, attachments: readonly McpAttachment[]): string {
  return [draft.trim(), ...attachments.map((a) => a.text)].filter(Boolean).join("\n\n");
}

/** False once the file's artifact answers 404; other failures leave the chip as it is. */
const storedFileExists = (artifactId: string) =>
  artifactApi.get(artifactId).then(
    () => true,
    (err: unknown) => !(err instanceof ApiFailure && err.status === 404),
  );

/** The stored file, or null once it answers 404 (other failures reject). */
const storedFileOf = (artifactId: string) =>
  artifactApi.get(artifactId).catch((err: unknown) => {
    if (err instanceof ApiFailure && err.status === 404) return null;
    throw err;
  });

export const MEMBER_CATALOG_REASON =
  "Only the owner of this conversation can use its MCP servers' prompts and resources.";

export function Composer(props: {
  conversationId: string;
  busy: boolean;
  /** The text, and the artifact ids of the files uploaded for it. */
  onSend: (text: string, attachments: string[]) => void;
  onCancel: () => void;
  /** Attaching made artifacts (too long, or binary): the artifact list has new entries. */
  onArtifactsAttached?: (count: number) => void;
  /** How many uploaded files wait for the next message (they are artifacts already). */
  onUploadsChanged?: (count: number) => void;
  /** The REST calls (tests pass their own). */
  api?: CatalogApi;
  /** File uploads and deleting a removed one (tests pass their own). */
  uploader?: AttachmentUploader;
  discardUpload?: (artifactId: string) => Promise<unknown>;
  /** Whether there is a draft: others in a shared conversation see who is typing. */
  onTyping?: (typing: boolean) => void;
  /** False for members of a shared conversation: its MCP prompts and resources are the owner's. */
  canUseMcpCatalog?: boolean;
  /** Where dropped files are attached besides the composer itself: the whole conversation. */
  dropZone?: RefObject<HTMLElement | null>;
  /** Whether an uploaded file is still stored (tests pass their own). */
  fileExists?: (artifactId: string) => Promise<boolean>;
  /** An uploaded file's artifact, or null when it is gone (tests pass their own). */
  storedFile?: (artifactId: string) => Promise<Artifact | null>;
  /** A sent message the server refused: its text comes back into the box, its files as chips. */
  returned?: { clientMessageId: string; text: string; attachments?: readonly string[] } | null;
  /**
   * Why the box takes no message yet (the user's role is still loading: a viewer's send would be
   * refused): the box and Send stay disabled, and the hint says this.
   */
  waiting?: string | null;
}) {
  const catalogAllowed = props.canUseMcpCatalog ?? true;
  const api = useMemo(
    () => props.api ?? catalogApi(props.conversationId),
    [props.api, props.conversationId],
  );
  const uploader = useMemo(
    () => props.uploader ?? attachmentUploader(props.conversationId),
    [props.uploader, props.conversationId],
  );
  const files = useAttachmentDrafts(
    props.conversationId,
    uploader,
    props.discardUpload ?? artifactApi.remove,
  );
  const fileInput = useRef<HTMLInputElement>(null);
  const messageBox = useRef<HTMLTextAreaElement>(null);
  const focusMessageBox = useCallback(() => messageBox.current?.focus(), []);
  usePageDropGuard();
  const uploading = files.drafts.some((d) => d.status === "uploading");
  const readyFiles = files.drafts.filter((d) => d.status === "ready").length;
  const { onUploadsChanged } = props;
  useEffect(() => onUploadsChanged?.(readyFiles), [readyFiles, onUploadsChanged]);
  // Kept for the tab while it is typed, so a reload does not lose it.
  const [draft, setDraft] = useState(() => draftOf(tabStore(), props.conversationId));
  useEffect(
    () => keepDraft(tabStore(), props.conversationId, draft),
    [draft, props.conversationId],
  );
  // A send the server refused comes back, ahead of anything typed since.
  const { returned } = props;
  const { giveBack, gone, restore } = files;
  const fileExists = props.fileExists ?? storedFileExists;
  const storedFile = props.storedFile ?? storedFileOf;
  // The stored files waiting for the next message outlive a reload too: read once, chips again.
  const [keptFiles] = useState(() => draftFilesOf(tabStore(), props.conversationId));
  useEffect(() => {
    for (const artifact of [...keptFiles].reverse()) restore(artifact);
    // One deleted meanwhile (in the artifact pane) says so, as a refused send's does.
    for (const { id } of keptFiles)
      void fileExists(id).then(
        (exists) => exists || gone(id),
        () => undefined,
      );
  }, [keptFiles, restore, gone, fileExists]);
  const readyArtifacts = useMemo(
    () => files.drafts.flatMap((d) => (d.status === "ready" ? [d.artifact] : [])),
    [files.drafts],
  );
  useEffect(
    () => keepDraftFiles(tabStore(), props.conversationId, readyArtifacts),
    [readyArtifacts, props.conversationId],
  );
  useEffect(() => {
    if (!returned) return;
    setDraft((typed) => (typed.trim() ? `${returned.text}\n\n${typed}` : returned.text));
    const ids = returned.attachments ?? [];
    const unknown = giveBack(ids);
    // Sent before a reload (from the outbox): its files get chips again from what is stored.
    for (const id of unknown)
      void storedFile(id).then(
        (artifact) => artifact && restore(artifact),
        () => undefined,
      );
    // A file deleted meanwhile (in the artifact pane) is why such a send is refused: say which.
    for (const id of ids)
      if (!unknown.includes(id))
        void fileExists(id).then(
          (exists) => exists || gone(id),
          () => undefined,
        );
  }, [returned, giveBack, gone, restore, fileExists, storedFile]);
  const [attachments, setAttachments] = useState<McpAttachment[]>([]);
  const [prompts, setPrompts] = useState<McpPromptList | "loading" | { error: string } | null>(
    null,
  );
  const [highlighted, setHighlighted] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const [form, setForm] = useState<McpPromptInfo | null>(null);
  const [resourcesOpen, setResourcesOpen] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  // A member's `/` is plain text: the API would refuse the owner's prompts (403).
  const query = form || dismissed || !catalogAllowed ? null : promptQuery(draft);
  const items =
    query !== null && prompts && typeof prompts === "object" && "items" in prompts
      ? matchPrompts(prompts.items, query)
      : [];
  const pickerOpen = query !== null;
  const message = messageText(draft, attachments);
  const tooLong = message.length > MAX_MESSAGE_CHARS;
  const inlineBudget =
    MAX_INLINE_RESOURCE_CHARS - attachments.reduce((n, a) => n + a.inlineChars, 0);

  // Read fresh whenever a new `/` is typed: the servers' current prompts (list_changed included).
  const loadPrompts = () => {
    setPrompts("loading");
    api
      .prompts()
      .then(setPrompts, (err: unknown) =>
        setPrompts({ error: err instanceof Error ? err.message : String(err) }),
      );
  };

  const edit = (value: string) => {
    if (catalogAllowed && value.startsWith("/") && !draft.startsWith("/")) {
      setDismissed(false);
      setHighlighted(0);
      loadPrompts();
    }
    setDraft(value);
    setHighlighted(0);
    props.onTyping?.(value.trim().length > 0);
  };

  const usePrompt = (result: McpPromptResult) => {
    setForm(null);
    setDraft(result.text);
    setNote(
      result.omitted.length > 0
        ? `Left out of the prompt (not text a message can hold): ${result.omitted.join("; ")}.`
        : null,
    );
  };

  const choose = (prompt: McpPromptInfo) => {
    setNote(null);
    if (prompt.arguments.length > 0) return setForm(prompt);
    setDraft("");
    api
      .prompt({ server: prompt.server, name: prompt.name })
      .then(usePrompt, (err: unknown) => setNote(err instanceof Error ? err.message : String(err)));
  };

  const waiting = props.waiting ?? null;
  const canSend = !!message && !tooLong && !uploading && !waiting;
  const send = () => {
    if (!canSend) return;
    props.onSend(message, files.take());
    props.onTyping?.(false);
    setDraft("");
    setAttachments([]);
    setNote(null);
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (pickerOpen && items.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        return setHighlighted((highlighted + step + items.length) % items.length);
      }
      if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
        e.preventDefault();
        return choose(items[Math.min(highlighted, items.length - 1)]!);
      }
    }
    if (pickerOpen && e.key === "Escape") {
      e.preventDefault();
      return setDismissed(true);
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const pickerStatus =
    prompts === "loading"
      ? "Asking the servers for their prompts…"
      : prompts && "error" in prompts
        ? prompts.error
        : prompts && items.length === 0
          ? prompts.items.length === 0
            ? "The servers of this conversation offer no prompts."
            : `No prompt matches “${query}”.`
          : null;

  const area = useRef<HTMLDivElement>(null);
  // A file uploads as it is added: not before the user is known to be able to send it.
  const drops = useHeldDrops(!!waiting, files.add);
  const dragging = useFileDrop(props.dropZone, area, drops.take);
  const onPaste = (e: ClipboardEvent) => {
    const pasted = pastedFiles(e.clipboardData);
    if (pasted.length === 0) return;
    e.preventDefault();
    files.add(pasted);
  };

  return (
    <div ref={area} className={`composer-area ${dragging ? "dragging" : ""}`}>
      {pickerOpen && (
        <PromptPicker
          items={items}
          highlighted={highlighted}
          status={pickerStatus}
          onChoose={choose}
          onHighlight={setHighlighted}
        />
      )}
      {form && (
        <PromptForm prompt={form} api={api} onUse={usePrompt} onCancel={() => setForm(null)} />
      )}
      {resourcesOpen && (
        <ResourcePicker
          api={api}
          inlineBudget={inlineBudget}
          onClose={() => setResourcesOpen(false)}
          onAttach={(a) => {
            setAttachments((all) => [...all, a]);
            setResourcesOpen(false);
            if (a.artifacts.length > 0) props.onArtifactsAttached?.(a.artifacts.length);
          }}
        />
      )}
      {note && <p className="muted small composer-note">{note}</p>}
      {attachments.length > 0 && (
        <ul className="attachments" aria-label="Attached to the next message">
          {attachments.map((a, i) => (
            <li key={`${a.uri}-${i}`}>
              📎 {a.uri}{" "}
              <span className="muted small">
                {a.artifacts.length > 0 ? "(as an artifact)" : `(${a.inlineChars} characters)`}
              </span>{" "}
              <button
                type="button"
                aria-label={`Remove ${a.uri}`}
                onClick={() => setAttachments((all) => all.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <AttachmentChips drafts={files.drafts} onRemove={files.remove} onEmptied={focusMessageBox} />
      <div className="composer">
        <textarea
          ref={messageBox}
          id="message-box"
          aria-label="Message"
          aria-describedby="composer-hint"
          placeholder="Ask something… (/ for prompts)"
          // Stays a textbox (the picker's highlight is its active descendant while it shows).
          aria-autocomplete="list"
          {...(pickerOpen && { "aria-controls": PROMPT_PICKER_ID })}
          {...(pickerOpen &&
            items.length > 0 && { "aria-activedescendant": optionId(highlighted) })}
          value={draft}
          onChange={(e) => edit(e.target.value)}
          onKeyDown={onKey}
          onPaste={onPaste}
          disabled={!!waiting}
          rows={3}
        />
        <div className="composer-actions">
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            accept={ACCEPTED_FILES}
            aria-label="Files to attach"
            data-testid="attach-files-input"
            onChange={(e) => {
              files.add(Array.from(e.currentTarget.files ?? []));
              // The same file can be chosen again after it was removed.
              e.currentTarget.value = "";
            }}
          />
          <button
            type="button"
            title="Attach images, PDFs, text, tables or JSON (or drop or paste them here)"
            disabled={!!waiting}
            onClick={() => fileInput.current?.click()}
          >
            Attach files
          </button>
          <button
            type="button"
            aria-expanded={resourcesOpen}
            disabled={!catalogAllowed}
            title={catalogAllowed ? "Attach a resource of your MCP servers" : MEMBER_CATALOG_REASON}
            onClick={() => setResourcesOpen(!resourcesOpen)}
          >
            Attach
          </button>
          {props.busy && (
            <button
              type="button"
              onClick={() => {
                // The button goes with the answer it stops: focus would fall to the page's start.
                messageBox.current?.focus();
                props.onCancel();
              }}
            >
              Cancel
            </button>
          )}
          <button type="button" className="primary" onClick={send} disabled={!canSend}>
            Send
          </button>
        </div>
      </div>
      <p id="composer-hint" className={`muted small composer-hint ${tooLong ? "error" : ""}`}>
        {waiting
          ? drops.held > 0
            ? `${waiting} ${heldDropsNote(drops.held)}`
            : waiting
          : tooLong
            ? `Too long: ${message.length} of ${MAX_MESSAGE_CHARS} characters. Shorten it, remove an attachment or split it into several messages.`
            : uploading
              ? "Uploading your files… Send is ready once they are stored."
              : readyFiles > 0 && !message
                ? "Add a few words to go with the files: what should the model do with them?"
                : "Enter sends, Shift+Enter starts a new line, / at the start offers your servers' prompts. A question asked while an answer is running waits its turn."}
      </p>
    </div>
  );
}
