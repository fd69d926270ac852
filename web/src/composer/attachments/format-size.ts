// A file size for people, in the units the server's limit messages use: 10 MiB, 512 KiB, 300 bytes.
export function formatSize(bytes: number): string {
  const KiB = 1024;
  const MiB = KiB * 1024;
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= KiB) return `${+(bytes / KiB).toFixed(1)} KiB`;
  return bytes === 1 ? "1 byte" : `${bytes} bytes`;
}
