// The browser's localStorage, or null where it is refused (some private modes, blocked storage).
export function browserStore(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
