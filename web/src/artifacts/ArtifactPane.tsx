// The artifact pane: the conversation's artifacts as a list, or the open one in its viewer.
// The list reloads when refreshKey changes (new artifacts arrived); the open artifact is
// fetched with its content whenever openId changes, and again when another tab (or person)
// changes it.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Artifact } from "../../../durable-objects/protocol/rest";
import type { ArtifactNow } from "../../../durable-objects/protocol/transcript";
import { artifactApi, failureWords } from "./artifact-api";
import { ArtifactDeleted, ArtifactEditingAllowed } from "./artifact-editing";
import { ArtifactHeader } from "./ArtifactHeader";
import { ArtifactList } from "./ArtifactList";
import { viewerFor } from "./viewers/viewer-for";
import "./artifacts.css";

export interface ArtifactPaneProps {
  conversationId: string;
  openId: string | null;
  onOpen: (id: string | null) => void;
  /** Any change of it reloads the list. */
  refreshKey: number | string;
  /** The conversation's artifacts whenever the pane learns of a change (load, pin, delete). */
  onItems?: (items: Artifact[]) => void;
  /** Whether you may pin and delete them (the owner); members see why not. Default true. */
  canManage?: boolean;
  /** Artifacts changed since they were made, by id (artifact_changed events, from any tab). */
  changes?: Readonly<Record<string, ArtifactNow>>;
}

export const DELETED_ELSEWHERE =
  "This artifact was deleted, in another tab or by the conversation's owner.";
/** Said under DELETED_ELSEWHERE when its last version is still on screen. */
export const DELETED_KEPT_ON_SCREEN =
  "Its last version stays here until you leave it: copy what you need.";

type Loaded<T> =
  { state: "loading" } | { state: "error"; message: string } | { state: "ok"; value: T };

export function ArtifactPane(props: ArtifactPaneProps) {
  const { conversationId, openId, onOpen, refreshKey, onItems } = props;
  const [list, setList] = useState<Loaded<Artifact[]>>({ state: "loading" });
  const [open, setOpen] = useState<Loaded<Artifact>>({ state: "loading" });
  /** The open artifact's id once it was deleted elsewhere while shown. */
  const [deletedId, setDeletedId] = useState<string | null>(null);
  const openNow = useRef(open);
  openNow.current = open;

  useEffect(() => {
    let live = true;
    artifactApi.list(conversationId).then(
      (r) => live && setList({ state: "ok", value: r.items }),
      (err: unknown) => live && setList({ state: "error", message: failureWords(err) }),
    );
    return () => {
      live = false;
    };
  }, [conversationId, refreshKey]);

  const items = list.state === "ok" ? list.value : null;
  useEffect(() => {
    if (items) onItems?.(items);
  }, [items, onItems]);

  useEffect(() => {
    if (!openId) return;
    let live = true;
    setOpen({ state: "loading" });
    artifactApi.get(openId).then(
      (a) => live && setOpen({ state: "ok", value: a }),
      (err: unknown) => live && setOpen({ state: "error", message: failureWords(err) }),
    );
    return () => {
      live = false;
    };
  }, [openId]);

  // Changed elsewhere: a newer version is fetched (an editor's draft stays, and says so), a pin
  // is taken as it is, a deletion said (the version shown, and an edit's text, stay on screen to
  // copy from). This tab's own changes come back too, and change nothing.
  const change = openId ? props.changes?.[openId] : undefined;
  useEffect(() => {
    if (!change) return;
    const held = openNow.current;
    if (change.change === "deleted") {
      if (held.state === "ok" && held.value.id === change.artifactId)
        return setDeletedId(change.artifactId);
      return setOpen({ state: "error", message: DELETED_ELSEWHERE });
    }
    if (held.state !== "ok" || held.value.id !== change.artifactId) return;
    if (change.updatedAt <= held.value.updatedAt) {
      if (change.pinned !== held.value.pinned)
        setOpen({ state: "ok", value: { ...held.value, pinned: change.pinned } });
      return;
    }
    let live = true;
    artifactApi.get(change.artifactId).then(
      (a) =>
        live &&
        setOpen((o) =>
          o.state === "ok" && o.value.id === a.id && a.updatedAt >= o.value.updatedAt
            ? { state: "ok", value: a }
            : o,
        ),
      // The version shown stays; a save from it is refused with words, and Reload offered.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [change]);

  // A change from the header or a viewer: keep the open artifact's content, update the list.
  const changed = useCallback((next: Artifact) => {
    setOpen((o) =>
      o.state === "ok" && o.value.id === next.id
        ? { state: "ok", value: { ...next, content: next.content ?? o.value.content } }
        : o,
    );
    setList((l) =>
      l.state === "ok"
        ? { state: "ok", value: l.value.map((a) => (a.id === next.id ? { ...next } : a)) }
        : l,
    );
  }, []);

  const deleted = (id: string) => {
    setList((l) =>
      l.state === "ok" ? { state: "ok", value: l.value.filter((a) => a.id !== id) } : l,
    );
    onOpen(null);
  };

  return (
    <aside className="artifact-pane" aria-label="Artifacts">
      {openId ? (
        <OpenArtifact
          openId={openId}
          open={open}
          listed={list.state === "ok" ? list.value.find((a) => a.id === openId) : undefined}
          onBack={() => onOpen(null)}
          onChanged={changed}
          onDeleted={deleted}
          canManage={props.canManage ?? true}
          deletedElsewhere={deletedId === openId}
        />
      ) : (
        <>
          <h2 className="artifact-pane-title">Artifacts</h2>
          {list.state === "loading" && <p className="artifact-note">Loading artifacts…</p>}
          {list.state === "error" && (
            <p role="alert" className="artifact-error">
              Could not load the artifacts: {list.message}
            </p>
          )}
          {list.state === "ok" && <ArtifactList items={list.value} onOpen={onOpen} />}
        </>
      )}
    </aside>
  );
}

function OpenArtifact(props: {
  openId: string;
  open: Loaded<Artifact>;
  listed: Artifact | undefined;
  onBack: () => void;
  onChanged: (a: Artifact) => void;
  onDeleted: (id: string) => void;
  canManage: boolean;
  /** Deleted elsewhere while shown: no header actions (they would answer 404), no editing. */
  deletedElsewhere: boolean;
}) {
  const { open, openId, deletedElsewhere } = props;
  const artifact = open.state === "ok" && open.value.id === openId ? open.value : undefined;
  // While the content loads, the list already knows the title.
  const shown = artifact ?? props.listed;
  const Viewer = artifact ? viewerFor(artifact.type) : null;
  return (
    <>
      {shown && !deletedElsewhere ? (
        <ArtifactHeader
          artifact={shown}
          onBack={props.onBack}
          onChanged={props.onChanged}
          onDeleted={props.onDeleted}
          canManage={props.canManage}
        />
      ) : (
        <div className="artifact-toolbar">
          <button type="button" onClick={props.onBack}>
            ← Back to list
          </button>
        </div>
      )}
      {open.state === "error" && (
        <p role="alert" className="artifact-error">
          Could not open the artifact: {open.message}
        </p>
      )}
      {deletedElsewhere && artifact && (
        <p role="alert" className="artifact-error">
          {DELETED_ELSEWHERE} {DELETED_KEPT_ON_SCREEN}
        </p>
      )}
      {!artifact && open.state !== "error" && <p className="artifact-note">Loading…</p>}
      {artifact && Viewer && (
        <div
          className="artifact-viewer"
          data-testid="artifact-viewer"
          data-artifact-type={artifact.type}
        >
          <ArtifactEditingAllowed.Provider value={props.canManage && !deletedElsewhere}>
            <ArtifactDeleted.Provider value={deletedElsewhere}>
              <Viewer key={artifact.id} artifact={artifact} onSaved={props.onChanged} />
            </ArtifactDeleted.Provider>
          </ArtifactEditingAllowed.Provider>
        </div>
      )}
    </>
  );
}
