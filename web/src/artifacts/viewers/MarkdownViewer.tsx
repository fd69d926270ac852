// A markdown document, rendered; Edit shows its source.
import { Markdown } from "../../markdown/Markdown";
import { CopyButton } from "./CopyButton";
import { EditableText } from "./EditableText";
import type { ViewerProps } from "./viewer-props";

export function MarkdownViewer(props: ViewerProps) {
  return (
    <EditableText
      {...props}
      what="document"
      view={(text) => <Markdown text={text} />}
      actions={<CopyButton text={props.artifact.content ?? ""} label="Copy markdown" />}
    />
  );
}
