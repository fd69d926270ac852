// Code: highlighted (CodeBlock brings its own Copy button), saved under its language's
// extension, editable.
import { CodeBlock } from "../../markdown/CodeBlock";
import { extensionFor, fileNameFor } from "../file-extension";
import { saveText } from "../save-file";
import { EditableText } from "./EditableText";
import type { ViewerProps } from "./viewer-props";

export function CodeViewer(props: ViewerProps) {
  const { artifact } = props;
  const ext = extensionFor(artifact.language);
  const text = artifact.content ?? "";
  return (
    <EditableText
      {...props}
      what="code"
      view={(code) => <CodeBlock code={code} language={artifact.language} />}
      actions={
        <button type="button" onClick={() => saveText(text, fileNameFor(artifact.title, ext))}>
          Save as .{ext}
        </button>
      }
    />
  );
}
