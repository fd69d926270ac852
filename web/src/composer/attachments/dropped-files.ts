// Files the user hands the composer other than through the picker: dropped on it, or pasted.

/** A drag that carries files (not text or a link being dragged within the page). */
export function carriesFiles(data: DataTransfer | null): boolean {
  return !!data && Array.from(data.types).includes("Files");
}

export function droppedFiles(data: DataTransfer | null): File[] {
  return data ? Array.from(data.files) : [];
}

/**
 * Files to attach from a paste: images copied to the clipboard (a screenshot, an image copied in
 * a browser) and files copied in a file manager. A paste of images that also has text (cells
 * copied from a spreadsheet come with a picture of themselves) pastes the text, as a text box
 * should; a copied file comes with its name as text, which is not what the user meant to paste.
 */
export function pastedFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = Array.from(data.files);
  const text = data.getData("text/plain");
  if (!text || files.length === 0) return files;
  const onlyImages = files.every((f) => f.type.startsWith("image/"));
  const onlyNames = text.split(/\r?\n/).every((line) => files.some((f) => line.endsWith(f.name)));
  return onlyImages && !onlyNames ? [] : files;
}

/** What the picker offers: the types the server accepts. */
export const ACCEPTED_FILES =
  "image/png,image/jpeg,image/webp,image/gif,application/pdf,text/plain,text/markdown,text/csv," +
  "text/tab-separated-values,application/json,.md,.markdown,.csv,.tsv,.json,.txt";
