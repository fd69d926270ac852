// Hands the browser a file made on the page (edited code, an exported graph) to save.
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the download a moment to start before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function saveText(text: string, fileName: string, type = "text/plain"): void {
  saveBlob(new Blob([text], { type: `${type};charset=utf-8` }), fileName);
}
