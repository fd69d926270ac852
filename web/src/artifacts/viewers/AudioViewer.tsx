// An audio artifact (a tool's MCP audio content), played by the browser's own player. Like an
// image, its source is only ever our own download route: never a URL or data the tool gave.
import { useState } from "react";
import { downloadUrl } from "../artifact-api";
import type { ViewerProps } from "./viewer-props";

export function AudioViewer({ artifact }: ViewerProps) {
  const [failed, setFailed] = useState(false);
  return (
    <>
      {failed && (
        <p role="alert" className="artifact-error">
          This browser cannot play this audio ({artifact.contentType ?? artifact.type}); Download
          saves it.
        </p>
      )}
      <audio
        className="artifact-audio"
        controls
        preload="metadata"
        src={downloadUrl(artifact.id)}
        aria-label={artifact.title}
        onError={() => setFailed(true)}
      />
    </>
  );
}
