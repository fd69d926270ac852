// How a response names the file it carries. Browsers take the UTF-8 name (a title in any script);
// the plain one is for older clients, and a header value must be Latin-1 anyway: each run of
// other characters, and any quote or backslash, becomes "_".
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const plain = name.replace(/[^\x20-\x7e]+|["\\]/g, "_");
  return `${kind}; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
