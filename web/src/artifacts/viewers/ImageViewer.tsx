// An image artifact, always from our own origin (the download route), with zoom.
import { useState } from "react";
import { downloadUrl } from "../artifact-api";
import type { ViewerProps } from "./viewer-props";

const STEPS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];

export function ImageViewer({ artifact }: ViewerProps) {
  // null: fit the pane; otherwise a scale of the image's natural size.
  const [zoom, setZoom] = useState<number | null>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const current = zoom ?? 1;
  const step = (dir: 1 | -1) => {
    const next =
      dir > 0
        ? STEPS.find((s) => s > current + 1e-9)
        : [...STEPS].reverse().find((s) => s < current - 1e-9);
    setZoom(next ?? current);
  };
  return (
    <>
      <div className="artifact-toolbar" role="group" aria-label="Zoom">
        <button
          type="button"
          aria-label="Zoom out"
          onClick={() => step(-1)}
          disabled={zoom !== null && zoom <= STEPS[0]!}
        >
          −
        </button>
        <button
          type="button"
          aria-label="Zoom in"
          onClick={() => step(1)}
          disabled={zoom !== null && zoom >= STEPS[STEPS.length - 1]!}
        >
          +
        </button>
        <button type="button" aria-pressed={zoom === null} onClick={() => setZoom(null)}>
          Fit
        </button>
        <span className="artifact-item-meta" aria-live="polite">
          {zoom === null ? "Fitted to the pane" : `${Math.round(zoom * 100)}%`}
        </span>
      </div>
      {failed && (
        <p role="alert" className="artifact-error">
          The image could not be loaded.
        </p>
      )}
      <div className={zoom === null ? "artifact-image fit" : "artifact-image"}>
        <img
          src={downloadUrl(artifact.id)}
          alt={artifact.title}
          style={
            zoom !== null && natural
              ? { width: natural.w * zoom, height: natural.h * zoom }
              : undefined
          }
          onLoad={(e) =>
            setNatural({
              w: e.currentTarget.naturalWidth || 300,
              h: e.currentTarget.naturalHeight || 150,
            })
          }
          onError={() => setFailed(true)}
        />
      </div>
    </>
  );
}
