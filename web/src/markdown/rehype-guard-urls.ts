import type { Element, ElementContent, Root, RootContent } from "hast";
import { isSameOriginImage, linkKind } from "./safe-urls";

// A rehype step, run last: a link to anything but the web, mail or our own pages becomes its
// plain text; an image from anywhere but our origin becomes a muted note naming its URL; links
// that leave the app open in a new tab without an opener or a referrer.
export function rehypeGuardUrls() {
  return (tree: Root) => {
    guard(tree);
  };
}

function guard(parent: Root | Element) {
  parent.children = parent.children.map((child) => {
    if (child.type !== "element") return child;
    guard(child);
    if (child.tagName === "a") return guardLink(child);
    if (child.tagName === "img") return guardImage(child);
    return child;
  }) as RootContent[] & ElementContent[];
}

function guardLink(link: Element): Element {
  const href = link.properties.href;
  const kind = linkKind(typeof href === "string" ? href : null);
  if (kind === null) {
    return { type: "element", tagName: "span", properties: {}, children: link.children };
  }
  if (kind === "web" || kind === "same-origin") {
    link.properties.target = "_blank";
    link.properties.rel = ["noopener", "noreferrer", "nofollow"];
  }
  return link;
}

function guardImage(image: Element): Element {
  const src = image.properties.src;
  if (isSameOriginImage(typeof src === "string" ? src : null)) {
    image.properties.loading = "lazy";
    return image;
  }
  const alt = typeof image.properties.alt === "string" ? image.properties.alt : "";
  const url = typeof src === "string" ? src : "";
  return {
    type: "element",
    tagName: "span",
    properties: { className: ["markdown-blocked-image", "muted"] },
    children: [
      { type: "text", value: `[image not loaded: ${alt}]` },
      ...(url
        ? [
            { type: "text" as const, value: " " },
            {
              type: "element" as const,
              tagName: "span",
              properties: { className: ["markdown-blocked-url"] },
              children: [{ type: "text" as const, value: url }],
            },
          ]
        : []),
    ],
  };
}
