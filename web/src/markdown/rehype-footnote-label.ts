// GFM footnotes label their section `id="footnote-label"` and point every reference at it
// (aria-describedby) whatever prefix the other ids get: with two messages' footnotes on one page
// the id would repeat. This gives the label the message's own prefix.
import type { Element, Root, RootContent } from "hast";

const LABEL = "footnote-label";

export function rehypeFootnoteLabel(options: { prefix: string }) {
  return (tree: Root) => {
    const walk = (node: Root | RootContent) => {
      if (node.type === "element") relabel(node, options.prefix);
      if ("children" in node) node.children.forEach(walk);
    };
    walk(tree);
  };
}

function relabel(element: Element, prefix: string) {
  const props = element.properties;
  if (props.id === LABEL) props.id = `${prefix}${LABEL}`;
  const describedBy = props.ariaDescribedBy;
  if (Array.isArray(describedBy))
    props.ariaDescribedBy = describedBy.map((id) => (id === LABEL ? `${prefix}${LABEL}` : id));
}
