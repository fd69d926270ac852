// The settings panel: this conversation's provider, model and step limit, and its route; which
// MCP servers and tools it uses; the user's MCP server registry; signing out; the providers'
// health. Closes with its button or Escape; with changes not saved it asks first, and so does any
// other way out the app offers (its header's Settings button, another conversation).
import {
  type MutableRefObject,
  type SyntheticEvent,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import type { Conversation, McpServer, ProviderInfo } from "../../../durable-objects/protocol/rest";
import { ApiFailure } from "../api";
import { ConfirmDialog } from "../ui/dialog";
import { keepTabWithin } from "../ui/focus-trap";
import { AccessSection } from "./AccessSection";
import { BudgetSection } from "./BudgetSection";
import { ConversationSection } from "./ConversationSection";
import { HousekeepingSection } from "./HousekeepingSection";
import { McpServersSection } from "./McpServersSection";
import { ProviderHealthSection } from "./ProviderHealthSection";
import { RouteSection } from "./RouteSection";
import { settingsApi } from "./settings-api";
import { TemplatesSection } from "../templates/TemplatesSection";
import { ToolsSection } from "./ToolsSection";
import { useConversationSaver } from "./use-conversation-saver";
import { OFFLINE_SAVE } from "./use-saving";
import "./settings.css";

/** Said offline in place of the sections that only the server can fill. */
export const NEED_NETWORK =
  "Tools, MCP servers, API tokens & sessions, templates and provider health need the network: they show here once you're back online.";

/** Runs `leave` once the user agrees to drop Settings' unsaved changes; at once when there are none. */
export type LeaveSettings = (leave: () => void) => void;

export interface SettingsPanelProps {
  conversation: Conversation;
  providers: ProviderInfo[];
  onConversationChange: (c: Conversation) => void;
  onClose: () => void;
  onSignOut: () => void;
  /** Shown at the top: how an MCP sign-in that returned to the app (redirect mode) ended. */
  notice?: string;
  /** The server cannot be reached (a page reloaded offline): what shows is what was last known. */
  offline?: boolean;
  /** Set while the panel is open: the app's other ways out of Settings ask through it. */
  leaveGuard?: MutableRefObject<LeaveSettings | null>;
}

export function SettingsPanel(props: SettingsPanelProps) {
  // Another conversation starts from its own settings, not from this one's drafts.
  return <Panel key={props.conversation.id} {...props} />;
}

function Panel(props: SettingsPanelProps) {
  const { onClose, leaveGuard } = props;
  const [servers, setServers] = useState<McpServer[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const save = useConversationSaver(props.conversation, props.onConversationChange);
  // The panel's forms changed since they were last submitted: closing would drop their drafts.
  const unsaved = useRef(new Set<HTMLFormElement>());
  // Forms submitted since: their drafts are dropped too while the form shows that the save was
  // refused or failed (an alert), since the values in it were not saved.
  const sent = useRef(new Set<HTMLFormElement>());
  const [discarding, setDiscarding] = useState<{ names: string[]; leave: () => void } | null>(null);
  const formOf = (e: SyntheticEvent) => (e.target as Element).closest?.("form") ?? null;
  const changed = (e: SyntheticEvent) => {
    const form = formOf(e);
    if (form && !form.closest("dialog")) unsaved.current.add(form);
  };
  const submitted = (e: SyntheticEvent) => {
    const form = formOf(e);
    if (!form || !unsaved.current.delete(form)) return;
    sent.current.add(form);
  };
  /** The forms whose values are not saved: changed since submitted, or refused when submitted. */
  const unsavedForms = useCallback(() => {
    const failed = [...sent.current].filter((f) => f.querySelector('[role="alert"]'));
    return [...new Set([...unsaved.current, ...failed])].filter((f) => f.isConnected);
  }, []);
  // A reload (the "new version is ready" one, say) or a closed tab would drop them too: the
  // browser asks first.
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (unsavedForms().length > 0) e.preventDefault();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [unsavedForms]);
  const askToLeave = useCallback<LeaveSettings>(
    (leave) => {
      const drafts = unsavedForms();
      if (drafts.length === 0) return leave();
      // Named by their section's heading ("This conversation"), or the form's own label.
      const names = drafts.map(
        (f) =>
          f.closest("section")?.querySelector("h3")?.textContent ??
          f.getAttribute("aria-label") ??
          "a form",
      );
      setDiscarding({ names: [...new Set(names)], leave });
    },
    [unsavedForms],
  );
  const requestClose = useCallback(() => askToLeave(onClose), [askToLeave, onClose]);
  useEffect(() => {
    if (!leaveGuard) return;
    leaveGuard.current = askToLeave;
    return () => {
      if (leaveGuard.current === askToLeave) leaveGuard.current = null;
    };
  }, [leaveGuard, askToLeave]);

  const reload = useCallback(async () => {
    try {
      setServers((await settingsApi.mcpServers()).items);
      setLoadError(null);
    } catch (err) {
      setServers((s) => s ?? []);
      setLoadError(err instanceof ApiFailure ? err.message : "Could not load your MCP servers.");
    }
  }, []);

  // Offline the registry cannot load: asked for once the network is back (`offline` clears).
  useEffect(() => {
    if (!props.offline) void reload();
  }, [reload, props.offline]);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) requestClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [requestClose]);

  return (
    <section
      role="dialog"
      aria-label="Settings"
      aria-modal="true"
      className="settings-panel"
      // It covers the conversation: Tab goes round its own controls, not to those behind it.
      onKeyDown={keepTabWithin}
      onInput={changed}
      onChange={changed}
      onSubmitCapture={submitted}
    >
      <header className="settings-header">
        <h2>Settings</h2>
        <span className="spacer" />
        <button type="button" ref={closeButton} onClick={requestClose}>
          Close
        </button>
      </header>
      {discarding && (
        <ConfirmDialog
          title="Close without saving?"
          message={`Changes in ${discarding.names.join(", ")} are not saved. Close and lose them, or cancel and save them.`}
          confirmLabel="Close without saving"
          onConfirm={async () => {
            setDiscarding(null);
            discarding.leave();
          }}
          onCancel={() => setDiscarding(null)}
        />
      )}
      {props.offline && (
        <p role="status" className="banner warning small" data-testid="settings-offline">
          {OFFLINE_SAVE} What shows here is what this browser last saw.
        </p>
      )}
      {props.notice && (
        <p role="status" className="banner info small" data-testid="settings-notice">
          {props.notice}
        </p>
      )}
      <ConversationSection
        conversation={props.conversation}
        providers={props.providers}
        save={save}
      />
      <RouteSection conversation={props.conversation} providers={props.providers} save={save} />
      <BudgetSection conversation={props.conversation} save={save} />
      <HousekeepingSection
        conversation={props.conversation}
        providers={props.providers}
        save={save}
      />
      {props.offline ? (
        // One calm note rather than each section's own "could not load": they show once online.
        <p className="settings-section muted small" data-testid="settings-need-network">
          {NEED_NETWORK}
        </p>
      ) : (
        <>
          <ToolsSection conversation={props.conversation} servers={servers} save={save} />
          <McpServersSection servers={servers} loadError={loadError} onChanged={reload} />
        </>
      )}
      <section className="settings-section" aria-label="Account">
        <button type="button" onClick={props.onSignOut}>
          Sign out
        </button>
      </section>
      {!props.offline && (
        <>
          <AccessSection onSignedOut={props.onSignOut} />
          <TemplatesSection providers={props.providers} />
          <ProviderHealthSection />
        </>
      )}
    </section>
  );
}
