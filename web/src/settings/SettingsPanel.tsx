// The settings panel: this conversation's provider, model and step limit, and its route; which
// MCP servers and tools it uses; the user's MCP server registry; signing out; the providers'
// health. Closes with its button or Escape.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Conversation, McpServer, ProviderInfo } from "../../../durable-objects/protocol/rest";
import { ApiFailure } from "../api";
import { AccessSection } from "./AccessSection";
import { ConversationSection } from "./ConversationSection";
import { HousekeepingSection } from "./HousekeepingSection";
import { McpServersSection } from "./McpServersSection";
import { ProviderHealthSection } from "./ProviderHealthSection";
import { RouteSection } from "./RouteSection";
import { settingsApi } from "./settings-api";
import { TemplatesSection } from "../templates/TemplatesSection";
import { ToolsSection } from "./ToolsSection";
import { useConversationSaver } from "./use-conversation-saver";
import "./settings.css";

export interface SettingsPanelProps {
  conversation: Conversation;
  providers: ProviderInfo[];
  onConversationChange: (c: Conversation) => void;
  onClose: () => void;
  onSignOut: () => void;
  /** Shown at the top: how an MCP sign-in that returned to the app (redirect mode) ended. */
  notice?: string;
}

export function SettingsPanel(props: SettingsPanelProps) {
  // Another conversation starts from its own settings, not from this one's drafts.
  return <Panel key={props.conversation.id} {...props} />;
}

function Panel(props: SettingsPanelProps) {
  const { onClose } = props;
  const [servers, setServers] = useState<McpServer[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const save = useConversationSaver(props.conversation, props.onConversationChange);

  const reload = useCallback(async () => {
    try {
      setServers((await settingsApi.mcpServers()).items);
      setLoadError(null);
    } catch (err) {
      setServers((s) => s ?? []);
      setLoadError(err instanceof ApiFailure ? err.message : "Could not load your MCP servers.");
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  return (
    <section role="dialog" aria-label="Settings" className="settings-panel">
      <header className="settings-header">
        <h2>Settings</h2>
        <span className="spacer" />
        <button type="button" ref={closeButton} onClick={onClose}>
          Close
        </button>
      </header>
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
      <HousekeepingSection
        conversation={props.conversation}
        providers={props.providers}
        save={save}
      />
      <ToolsSection conversation={props.conversation} servers={servers} save={save} />
      <McpServersSection servers={servers} loadError={loadError} onChanged={reload} />
      <section className="settings-section" aria-label="Account">
        <button type="button" onClick={props.onSignOut}>
          Sign out
        </button>
      </section>
      <AccessSection onSignedOut={props.onSignOut} />
      <TemplatesSection providers={props.providers} />
      <ProviderHealthSection />
    </section>
  );
}
