// The signed-in app: conversations on the left, the open conversation in the middle, its
// artifacts on the right when asked for.
import {
  startTransition,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import type { Artifact, Conversation, ProviderInfo } from "../../durable-objects/protocol/rest";
import type { ArtifactNow } from "../../durable-objects/protocol/transcript";
import { api, ApiFailure, type User } from "./api";
import { forgetFirstRequests } from "./first-requests";
import { forgetUser, rememberUser } from "./last-user";
import { sessionStart } from "./session-start";
import { startLinkToken } from "./start-link";
import { browserStore } from "./browser-store";
import { eraseOutboxes } from "./chat/outbox-keys";
import { eraseDrafts, tabStore } from "./composer/draft-store";
import { forgetRoles, rememberedRole } from "./sharing/remembered-role";
import { forgetTranscripts } from "./chat/remembered-transcript";
import {
  forgetDetails,
  rememberConversation,
  rememberedConversation,
  rememberedProviders,
  rememberProviders,
} from "./conversations/remembered-details";
import { artifactApi } from "./artifacts/artifact-api";
import { type Pins, PinsContext } from "./attachments/pins";
import { forgetLanding, readLanding, sessionStore } from "./settings/sign-in-return";
import { ConversationList, loadNewForm } from "./conversations/ConversationList";
import { creationOf, pendingConversation } from "./conversations/new-conversation";
import { SignIn } from "./SignIn";
import { Drawer } from "./layout/Drawer";
import { PaneResizer } from "./layout/PaneResizer";
import { usePaneWidth } from "./layout/use-pane-width";
import { DESKTOP_QUERY, PHONE_QUERY, useMediaQuery } from "./layout/use-media-query";
import "./layout/layout.css";
import type { ConversationRole, MemberList } from "../../durable-objects/protocol/sharing";
import { sharingApi } from "./sharing/sharing-api";
import { SharedWithMe } from "./sharing/SharedWithMe";
import { LeftNotice, MemberHeader } from "./sharing/MemberHeader";
import type { LeaveSettings } from "./settings/SettingsPanel";
import { takesReasoningEffort } from "../../durable-objects/providers/effort-support";
import { lazyNamed } from "./ui/lazy-named";
import { keepTabWithin } from "./ui/focus-trap";

// The first screen is the conversation list: what it does not show loads when first shown or
// once the list is up and the page idle, whichever comes first, so the first visit's script is
// the list's alone (each part below is a chunk of its own).
const loadChatView = () => import("./chat/ChatView");
const loadSettingsPanel = () => import("./settings/SettingsPanel");
const loadArtifactPane = () => import("./artifacts/ArtifactPane");
const loadShareDialog = () => import("./sharing/ShareDialog");
const ChatView = lazyNamed(loadChatView, "ChatView");
const SettingsPanel = lazyNamed(loadSettingsPanel, "SettingsPanel");
const ArtifactPane = lazyNamed(loadArtifactPane, "ArtifactPane");
const ShareDialog = lazyNamed(loadShareDialog, "ShareDialog");

/**
 * Loads the parts the first screen left out, one per idle moment: opening them later is then
 * at once, and the service worker has their code for a start without the network.
 */
function loadTheRestWhenIdle(): () => void {
  const parts = [loadChatView, loadArtifactPane, loadSettingsPanel, loadShareDialog, loadNewForm];
  const idle = (run: () => void) =>
    typeof requestIdleCallback === "function"
      ? requestIdleCallback(run, { timeout: 5000 })
      : window.setTimeout(run, 200);
  let pending: number | undefined;
  const next = () => {
    const load = parts.shift();
    if (!load) return;
    void load()
      .catch(() => undefined)
      .then(() => (pending = idle(next)));
  };
  pending = idle(next);
  return () => {
    parts.length = 0;
    if (pending === undefined) return;
    if (typeof cancelIdleCallback === "function") cancelIdleCallback(pending);
    else window.clearTimeout(pending);
  };
}

const UNREACHABLE =
  "The server could not be reached to check your sign-in. Check the network, then reload the page.";
const OFFLINE_SIGN_OUT =
  "You're offline: signing out needs the server to end your session. Sign out again once you're back online.";
/** How often a session check that got no answer is asked again (besides when the network returns). */
const RECHECK_UNREACHABLE_MS = 15_000;

type Auth =
  | { state: "checking" }
  | { state: "signed-out"; error?: string }
  // Not `confirmed`: the user this browser last signed in as (last-user.ts), drawn while the
  // session check is on its way; nothing that acts for them starts before it answers.
  // `unreachable`: the check got no answer (offline): their open conversation shows, its unsent
  // messages wait, and the check is asked again when the network is back.
  | { state: "signed-in"; user: User; confirmed: boolean; unreachable?: boolean };

/**
 * A returning visit starts with its last user; a start link (`#token=…`) signs in first; a
 * browser nobody is signed in from shows the sign-in page at once.
 */
function initialAuth(): Auth {
  const start = sessionStart(location.hash, browserStore());
  if (start.kind === "signed-out") return { state: "signed-out" };
  return start.kind === "check" && start.user
    ? { state: "signed-in", user: start.user, confirmed: false }
    : { state: "checking" };
}

export function App() {
  const [auth, setAuth] = useState<Auth>(initialAuth);
  const confirmed = auth.state === "signed-in" && auth.confirmed;
  // A session the server confirmed: remembered, so the next visit draws the app at once.
  const signedIn = useCallback((user: User) => {
    rememberUser(browserStore(), user);
    setAuth({ state: "signed-in", user, confirmed: true });
  }, []);
  // Back from an MCP sign-in in redirect mode: Settings opens on the result.
  const [landing, setLanding] = useState(() => readLanding(location.hash, sessionStore()));
  // The open conversation is in the address (?c=…), so a reload or a shared tab reopens it.
  const [selected, setSelected] = useState<string | null>(() =>
    new URLSearchParams(landing?.search || location.search).get("c"),
  );
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const [providers, setProviders] = useState<ProviderInfo[]>([]);
  const [hint, setHint] = useState<string | null>(null);
  const [openArtifact, setOpenArtifact] = useState<string | null>(null);
  const [paneOpen, setPaneOpen] = useState(false);
  const [artifactCount, setArtifactCount] = useState(0);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [pinned, setPinned] = useState<string[]>([]);
  const [pinnedIds, setPinnedIds] = useState<ReadonlySet<string>>(NO_PINS);
  // Bumped by a pin made outside the pane (a file in a message), so the pane's list reloads.
  const [pinRevision, setPinRevision] = useState(0);
  // Artifacts changed since they were made (in any tab, by anyone): the pane follows them.
  const [artifactChanges, setArtifactChanges] = useState(NO_CHANGES);
  const lastArtifactChange = Math.max(0, ...Object.values(artifactChanges).map((c) => c.seq));
  // Your role in the open conversation and who else has it (null while loading).
  const [membership, setMembership] = useState<MemberList | null>(null);
  // Why it did not load (owner-only controls stay hidden until it does); bumped to try again.
  const [membershipFailed, setMembershipFailed] = useState<string | null>(null);
  const [membershipTry, setMembershipTry] = useState(0);
  // Another conversation opened: the last one's members go before anything renders with them
  // (its chat would take that role for the new one's, and remember it).
  const [membershipOf, setMembershipOf] = useState(selected);
  if (membershipOf !== selected) {
    setMembershipOf(selected);
    setMembership(null);
  }
  // A shared conversation the user is leaving or has left: its page says so instead.
  const [leaving, setLeaving] = useState<{ id: string; done: boolean } | null>(null);
  // Bumped after leaving, so "Shared with you" drops the conversation at once.
  const [sharedRevision, setSharedRevision] = useState(0);
  const [shareOpen, setShareOpen] = useState(false);
  const settingsButton = useRef<HTMLButtonElement>(null);
  // Every way out of Settings asks about its unsaved changes, as its own Close does.
  const leaveSettings = useRef<LeaveSettings | null>(null);
  const afterSettings = useCallback((then: () => void) => {
    const ask = leaveSettings.current;
    if (ask) ask(then);
    else then();
  }, []);
  const phone = useMediaQuery(PHONE_QUERY);
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawerButton = useRef<HTMLButtonElement>(null);
  const sidebarWidth = usePaneWidth("sidebar");
  const artifactsWidth = usePaneWidth("artifacts");

  // `npm start` prints a link with the token in the fragment: it never reaches a server log.
  const check = useCallback(
    (token: string | null) => {
      if (token) history.replaceState(null, "", location.pathname + location.search);
      (token ? api.signIn(token) : api.session())
        .then(({ user }) => signedIn(user))
        .catch((err: unknown) => {
          // The list and the rest asked for early have no session either: a sign-in asks again.
          forgetFirstRequests();
          // No answer at all (fetch's TypeError: offline, the server unreachable): nothing says
          // the session ended, so the last user's page stays, and the check waits for the network.
          if (err instanceof TypeError)
            return setAuth((a) =>
              a.state === "signed-in"
                ? { ...a, unreachable: true }
                : { state: "signed-out", error: UNREACHABLE },
            );
          if (err instanceof ApiFailure && err.status === 401) forgetUser(browserStore());
          setAuth({
            state: "signed-out",
            ...(err instanceof ApiFailure && err.status !== 401 && { error: err.message }),
          });
        });
    },
    [signedIn],
  );
  useEffect(() => {
    const start = sessionStart(location.hash, browserStore());
    if (start.kind !== "signed-out") check(start.kind === "start-link" ? start.token : null);
    // A start link opened in a tab already showing the app changes only the fragment.
    const onHashChange = () => {
      const token = startLinkToken(location.hash);
      if (!token) return;
      setAuth({ state: "checking" });
      check(token);
    };
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, [check]);
  // Unanswered: asked again as the network comes back, and now and then (a server that was down).
  const unreachable = auth.state === "signed-in" && !auth.confirmed && !!auth.unreachable;
  useEffect(() => {
    if (!unreachable) return;
    const again = () => check(null);
    window.addEventListener("online", again);
    const timer = window.setInterval(again, RECHECK_UNREACHABLE_MS);
    return () => {
      window.removeEventListener("online", again);
      window.clearInterval(timer);
    };
  }, [unreachable, check]);

  useEffect(() => {
    if (!landing) return;
    forgetLanding(sessionStore(), () =>
      history.replaceState(null, "", location.pathname + (landing.search || location.search)),
    );
  }, [landing]);
  useEffect(() => {
    if (landing && conversation) setSettingsOpen(true);
  }, [landing, conversation]);

  const userId = auth.state === "signed-in" ? auth.user.id : null;
  useEffect(() => {
    if (!confirmed) return;
    api
      .providers()
      .then((p) => {
        if (userId) rememberProviders(browserStore(), userId, p.providers);
        setProviders(p.providers);
        setHint(p.hint ?? null);
      })
      .catch(() => undefined);
  }, [confirmed, userId]);

  useEffect(() => {
    if (confirmed) return loadTheRestWhenIdle();
  }, [confirmed]);

  // The open conversation's code starts loading while the session is checked.
  useEffect(() => {
    if (selected) void loadChatView();
  }, [selected]);

  /** What belongs to the conversation shown: another one starts without it. */
  const resetConversation = () => {
    setConversation(null);
    setOpenArtifact(null);
    setPaneOpen(false);
    setSettingsOpen(false);
    setPinned([]);
    setPinnedIds(NO_PINS);
    setArtifactChanges(NO_CHANGES);
    setMembership(null);
    setMembershipFailed(null);
    setShareOpen(false);
  };
  // Whose conversation the page last showed: only another one (or another user) starts afresh. The
  // session check confirming the same user (back online after a reload offline) keeps what is
  // open, Settings with its unsaved changes included, and loads the details anew over it.
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    const url = new URL(location.href);
    if (selected) url.searchParams.set("c", selected);
    else url.searchParams.delete("c");
    if (url.href !== location.href) history.replaceState(null, "", url);
    const shown = `${userId ?? ""}\n${selected ?? ""}`;
    if (shownFor.current !== shown) {
      shownFor.current = shown;
      resetConversation();
    }
    // Before the sign-in settles (a start link's token is still being traded) the load would get
    // 401 and close the conversation the address names.
    if (!selected || !confirmed) return;
    // A new conversation shows at once as chosen; the rest loads once its socket has created it.
    const chosen = pendingConversation(selected);
    if (chosen) setConversation(chosen);
    let live = true;
    creationOf(selected)
      .then(() => api.conversation(selected))
      // A rename made while this loaded is newer than what the load read.
      .then((loaded) => {
        if (!live) return;
        setConversation((known) =>
          known?.id === loaded.id && known.updatedAt > loaded.updatedAt ? known : loaded,
        );
      })
      // One its socket could not create stays open to say why (the chat shows the refusal).
      .catch(() => live && !chosen && setSelected(null));
    return () => {
      live = false;
    };
  }, [selected, confirmed, userId]);
  // What the server says of the open conversation (loaded, renamed, saved) is kept for a reload
  // offline, which then shows its header and Settings from it (remembered-details.ts).
  useEffect(() => {
    if (confirmed && userId && conversation?.id === selected)
      rememberConversation(browserStore(), userId, conversation);
  }, [confirmed, userId, conversation, selected]);
  // The session check got no answer (offline): the last known details stand in until it does.
  useEffect(() => {
    if (!unreachable || !userId) return;
    setProviders((known) => (known.length ? known : rememberedProviders(browserStore(), userId)));
    if (selected)
      setConversation((known) => known ?? rememberedConversation(browserStore(), userId, selected));
  }, [unreachable, userId, selected]);
  // The user's role: a new conversation's members can be read once its socket has made it.
  const me = auth.state === "signed-in" ? auth.user : null;
  useEffect(() => {
    if (!selected || !confirmed) return;
    // Who made it owns it: its owner's controls show at once, not after its members load.
    if (me && pendingConversation(selected))
      setMembership((m) => m ?? { role: "owner", owner: me, members: [] });
    let live = true;
    const load = () =>
      sharingApi.members(selected).then(
        (m) => {
          if (!live) return;
          setMembership(m);
          setMembershipFailed(null);
        },
        (err: unknown) =>
          live && setMembershipFailed(err instanceof Error ? err.message : "no answer"),
      );
    // One its socket could not create has no members to read: the chat says why.
    creationOf(selected).then(load, () => undefined);
    return () => {
      live = false;
    };
  }, [selected, confirmed, membershipTry, me]);
  // A conversation from the user's own list is theirs: its owner's box and controls open at once,
  // as a new one's do, instead of waiting for its members to load.
  const [ownListed, setOwnListed] = useState<ReadonlySet<string>>(NO_IDS);
  const ownListedChanged = useCallback(
    (ids: ReadonlySet<string>) => setOwnListed(sameOrNew(ids)),
    [],
  );
  useEffect(() => {
    if (me && selected && confirmed && ownListed.has(selected))
      setMembership((m) => m ?? { role: "owner", owner: me, members: [] });
  }, [me, selected, confirmed, ownListed]);
  // Owner-only controls show once the user is known to own it, never while that loads; offline
  // (the members cannot load), as the list or the role this browser last knew there says.
  const isOwner =
    membership?.role === "owner" ||
    (unreachable &&
      !membership &&
      !!me &&
      !!selected &&
      (ownListed.has(selected) || rememberedRole(browserStore(), me.id, selected) === "owner"));
  const left = leaving?.id === selected ? leaving : null;
  const leave = async () => {
    if (!selected || !me) return;
    const id = selected;
    // The chat closes first: the server's word to its socket must not read "stopped sharing".
    setLeaving({ id, done: false });
    try {
      await sharingApi.remove(id, me.id);
    } catch (err) {
      setLeaving(null);
      throw err;
    }
    setLeaving({ id, done: true });
    setPaneOpen(false);
    setSharedRevision((n) => n + 1);
  };
  // The user left it in another tab: this one says so too, and its list drops it.
  const leftElsewhere = useCallback(() => {
    if (!selected) return;
    setLeaving({ id: selected, done: true });
    setPaneOpen(false);
    setSharedRevision((n) => n + 1);
  }, [selected]);
  // The owner stopped sharing the open conversation: "Shared with you" no longer lists it.
  const sharingRevoked = useCallback(() => setSharedRevision((n) => n + 1), []);
  // The owner made this user a viewer (or a participant) while the conversation is open.
  const followRole = useCallback(
    (role: ConversationRole) => setMembership((m) => (m && m.role !== role ? { ...m, role } : m)),
    [],
  );

  // The model named the conversation: the header and the list show it at once.
  const [liveTitle, setLiveTitle] = useState<{ id: string; title: string } | null>(null);
  const showTitle = useCallback(
    (title: string) => {
      setConversation((known) => (known && known.id === selected ? { ...known, title } : known));
      if (selected) setLiveTitle({ id: selected, title });
    },
    [selected],
  );

  // Pinned artifacts go with the next message; the composer says which.
  const showPinned = useCallback((items: Artifact[]) => {
    setPinned(items.filter((a) => a.pinned).map((a) => a.title));
    setPinnedIds(new Set(items.filter((a) => a.pinned).map((a) => a.id)));
  }, []);
  const pins = useMemo<Pins>(
    () => ({
      pinnedIds,
      setPinned: async (id, pin) => {
        await artifactApi.pin(id, pin);
        // Shown at once; the list's reload confirms it.
        setPinnedIds((ids) => new Set([...ids].filter((x) => x !== id).concat(pin ? [id] : [])));
        setPinRevision((n) => n + 1);
      },
    }),
    [pinnedIds],
  );
  useEffect(() => {
    // While the pane is open it loads the list itself and reports it through onItems. Before the
    // session is confirmed (a start link's token is still being traded) it would answer 401.
    if (!selected || paneOpen || !confirmed) return;
    let live = true;
    artifactApi
      .list(selected)
      .then((r) => live && showPinned(r.items))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [selected, artifactCount, pinRevision, lastArtifactChange, paneOpen, showPinned, confirmed]);

  // A transition: opening the pane re-renders the chat beside it and loads the pane's code, work
  // that React may then split across frames instead of holding the click's task (a large
  // knowledge graph's click was a task over 50 ms under load).
  const openArtifactById = useCallback((id: string) => {
    startTransition(() => {
      setOpenArtifact(id);
      setPaneOpen(true);
    });
  }, []);
  // On a phone the pane is a sheet over the chat: focus moves into it, and back to what opened it
  // once it closes (else a keyboard or screen-reader user stays on a control hidden under it).
  const sheetBack = useRef<HTMLButtonElement>(null);
  // Where the focus goes when Escape closes the desktop pane from inside it.
  const artifactsButton = useRef<HTMLButtonElement>(null);
  const sheetOpener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!phone) return;
    if (paneOpen) {
      const at = document.activeElement;
      sheetOpener.current = at instanceof HTMLElement && at !== document.body ? at : null;
      sheetBack.current?.focus();
    } else {
      if (sheetOpener.current?.isConnected) sheetOpener.current.focus();
      sheetOpener.current = null;
    }
  }, [paneOpen, phone]);
  const closeDrawer = useCallback(() => {
    setDrawerOpen(false);
    drawerButton.current?.focus();
  }, []);
  // Stable, so the open conversation's messages do not re-render with every change here.
  const openConversation = useCallback(
    (id: string) =>
      afterSettings(() => {
        setSelected(id);
        setDrawerOpen(false);
      }),
    [afterSettings],
  );
  // null: the open conversation was deleted, so its Settings' drafts have nothing left to save.
  const select = (id: string | null) => {
    if (id !== null) return openConversation(id);
    setSelected(null);
    setDrawerOpen(false);
  };
  const drawerToggle = (
    <button
      type="button"
      ref={drawerButton}
      className="drawer-button"
      aria-expanded={drawerOpen}
      aria-controls="conversation-drawer"
      aria-label="Conversations"
      onClick={() => setDrawerOpen(true)}
    >
      ☰
    </button>
  );
  // Signing out needs the server to end the session: offline, the page would forget the user
  // while the session cookie stayed valid, so it says to sign out once back online instead.
  const [signOutProblem, setSignOutProblem] = useState<string | null>(null);
  const signOut = () =>
    api.signOut().then(signedOut, (err: unknown) => {
      if (err instanceof TypeError) return setSignOutProblem(OFFLINE_SIGN_OUT);
      // Refused (the session had ended already, say): signed out all the same.
      signedOut();
    });
  const signedOut = () => {
    setSignOutProblem(null);
    forgetUser(browserStore());
    eraseDrafts(tabStore());
    // Their unsent messages are theirs: not left for whoever signs in next on this browser.
    if (auth.state === "signed-in") {
      eraseOutboxes(browserStore(), auth.user.id);
      forgetRoles(browserStore(), auth.user.id);
      forgetDetails(browserStore(), auth.user.id);
      forgetTranscripts(browserStore(), auth.user.id);
    }
    setAuth({ state: "signed-out" });
  };
  const closeSettings = useCallback(() => {
    setSettingsOpen(false);
    setLanding(null);
    settingsButton.current?.focus();
  }, []);

  if (auth.state === "checking") return <p className="centered">Loading…</p>;
  if (auth.state === "signed-out") {
    return <SignIn error={auth.error} onSignedIn={signedIn} />;
  }
  return (
    <div
      className={`layout ${paneOpen ? "with-pane" : ""} ${desktop ? "resizable" : ""}`}
      style={
        desktop
          ? {
              ["--sidebar-width" as string]: `${sidebarWidth.width}px`,
              ["--artifacts-width" as string]: `${artifactsWidth.width}px`,
            }
          : undefined
      }
    >
      {/* The first Tab stop: past the conversation list, straight to the message box. */}
      <a
        href="#message-box"
        className="visually-hidden skip-link"
        onClick={(e) => {
          // No fragment in the address: a reload would read it as a sign-in link's.
          e.preventDefault();
          (document.getElementById("message-box") ?? document.querySelector("main"))?.focus();
        }}
      >
        Skip to the message box
      </a>
      <Drawer phone={phone} open={drawerOpen} onClose={closeDrawer}>
        <ConversationList
          selected={selected}
          onSelect={select}
          user={auth.user}
          providers={providers}
          onSignOut={signOut}
          onRenamed={(c) => c.id === selected && setConversation(c)}
          liveTitle={liveTitle}
          onOwnListed={ownListedChanged}
          extra={
            <SharedWithMe
              selected={selected}
              onSelect={select}
              revision={sharedRevision}
              userId={auth.user.id}
            />
          }
        />
      </Drawer>
      {desktop && (
        <PaneResizer
          pane="sidebar"
          label="Resize the conversation list"
          grows="right"
          {...sidebarWidth.handlers}
        />
      )}
      <main className="main" tabIndex={-1}>
        {!(selected && conversation) && (
          <div className="phone-bar">
            {drawerToggle}
            <span>Thinking Chat</span>
          </div>
        )}
        {hint && (
          <div role="alert" className="banner warning">
            {hint}
          </div>
        )}
        {signOutProblem && (
          <div role="alert" className="banner warning" data-testid="sign-out-problem">
            {signOutProblem}
          </div>
        )}
        {landing && !selected && (
          <div role="status" className={`banner ${landing.ok ? "info" : "warning"}`}>
            {landing.message} Open a conversation and its Settings to see your MCP servers.
          </div>
        )}
        {selected && conversation && (
          <header className="conversation-header">
            {drawerToggle}
            <h1>{conversation.title}</h1>
            <span className="muted small">
              {conversation.provider} · {conversation.model}
              {conversation.settings.reasoningEffort &&
                takesReasoningEffort(
                  conversation.provider,
                  conversation.model,
                  providers.find((p) => p.id === conversation.provider),
                ) &&
                ` · ${conversation.settings.reasoningEffort} reasoning`}
              {conversation.mode !== "normal" && ` · ${conversation.mode} mode`}
            </span>
            {!left?.done && (
              <MemberHeader
                membership={membership}
                failed={membershipFailed}
                onRetry={() => setMembershipTry((n) => n + 1)}
                title={conversation.title}
                onLeave={leave}
              />
            )}
            {/* One group: in a narrow column it moves to its own line, still to the right. */}
            <div className="header-actions">
              {/* Sharing needs the members: never from the role remembered offline. */}
              {membership?.role === "owner" && (
                <button type="button" data-testid="share-button" onClick={() => setShareOpen(true)}>
                  Share{membership.members.length > 0 && ` (${membership.members.length})`}
                </button>
              )}
              {!left && (
                <button
                  type="button"
                  ref={artifactsButton}
                  aria-pressed={paneOpen}
                  onClick={() => setPaneOpen((open) => !open)}
                >
                  Artifacts{artifactCount > 0 && ` (${artifactCount})`}
                </button>
              )}
              {/* Settings change the conversation: its owner's to change. */}
              {isOwner && (
                <button
                  type="button"
                  ref={settingsButton}
                  aria-expanded={settingsOpen}
                  onClick={() =>
                    settingsOpen ? afterSettings(closeSettings) : setSettingsOpen(true)
                  }
                >
                  Settings
                </button>
              )}
            </div>
          </header>
        )}
        {shareOpen && selected && (
          <Suspense fallback={null}>
            <ShareDialog
              conversationId={selected}
              onClose={() => {
                setShareOpen(false);
                sharingApi
                  .members(selected)
                  .then(setMembership)
                  .catch(() => undefined);
              }}
            />
          </Suspense>
        )}
        {settingsOpen && conversation && (
          <Suspense fallback={null}>
            <SettingsPanel
              conversation={conversation}
              providers={providers}
              onConversationChange={setConversation}
              onClose={closeSettings}
              onSignOut={signOut}
              leaveGuard={leaveSettings}
              offline={unreachable}
              {...(landing && { notice: landing.message })}
            />
          </Suspense>
        )}
        {selected && !confirmed && !unreachable ? (
          <p className="centered muted">Loading…</p>
        ) : left ? (
          left.done ? (
            <LeftNotice
              title={conversation?.title ?? "this conversation"}
              owner={membership?.owner.name ?? "its owner"}
            />
          ) : (
            <p className="centered muted">Leaving…</p>
          )
        ) : selected ? (
          <PinsContext.Provider value={pins}>
            <Suspense fallback={<p className="centered muted">Loading…</p>}>
              <ChatView
                key={selected}
                conversationId={selected}
                onOpenArtifact={openArtifactById}
                onArtifactCount={setArtifactCount}
                onArtifactsChanged={setArtifactChanges}
                pinned={pinned}
                onTitle={showTitle}
                onOpenConversation={openConversation}
                me={auth.user.id}
                membership={membership}
                onRoleChange={followRole}
                onLeft={leftElsewhere}
                onRevoked={sharingRevoked}
                template={
                  conversation?.id === selected ? conversation.settings.template : undefined
                }
                providers={providers}
              />
            </Suspense>
          </PinsContext.Provider>
        ) : (
          <p className="centered muted">Create or pick a conversation.</p>
        )}
      </main>
      {paneOpen && selected && desktop && (
        <PaneResizer
          pane="artifacts"
          label="Resize the artifact pane"
          grows="left"
          {...artifactsWidth.handlers}
        />
      )}
      {paneOpen && selected && (
        // On a phone the pane is a full-screen sheet; the back button returns to the chat.
        <div
          className="sheet"
          onKeyDown={(e) => {
            // On a phone the sheet keeps Tab; Escape closes it, or on a desktop the pane, from
            // inside (a viewer that takes Escape for itself, a search box say, prevents this).
            if (e.key !== "Escape") return phone ? keepTabWithin(e) : undefined;
            if (e.defaultPrevented) return;
            e.preventDefault();
            setPaneOpen(false);
            if (!phone) artifactsButton.current?.focus();
          }}
        >
          {phone && (
            <button
              type="button"
              ref={sheetBack}
              className="sheet-back"
              onClick={() => setPaneOpen(false)}
            >
              ← Back to the conversation
            </button>
          )}
          <Suspense fallback={null}>
            <ArtifactPane
              conversationId={selected}
              openId={openArtifact}
              onOpen={setOpenArtifact}
              refreshKey={`${artifactCount}:${pinRevision}:${lastArtifactChange}`}
              changes={artifactChanges}
              onItems={showPinned}
              canManage={isOwner}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
}

const NO_PINS: ReadonlySet<string> = new Set();
const NO_IDS: ReadonlySet<string> = new Set();
/** The list refreshes every few seconds: the same ids keep the same set (no re-render). */
const sameOrNew = (next: ReadonlySet<string>) => (prev: ReadonlySet<string>) =>
  prev.size === next.size && [...next].every((id) => prev.has(id)) ? prev : next;
const NO_CHANGES: Readonly<Record<string, ArtifactNow>> = {};
