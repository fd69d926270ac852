// A size for people, the same in the server's messages (an attachment over its limit), the
// Markdown export and the web client: 10 MiB, 512 KiB, 1.5 KiB, 300 bytes.
const KiB = 1024;
const MiB = KiB * 1024;

export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= KiB) return `${+(bytes / KiB).toFixed(1)} KiB`;
  return bytes === 1 ? "1 byte" : `${bytes} bytes`;
}
