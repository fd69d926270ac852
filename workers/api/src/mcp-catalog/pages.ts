// Paginated MCP listings, followed to the end within bounds: a server that pages forever (or
// lists thousands of entries) gives the first MAX_ITEMS, never an endless request.
export const MAX_PAGES = 20;
export const MAX_ITEMS = 500;

export async function collectPages<T>(
  fetchPage: (
    cursor: string | undefined,
  ) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && ++pages < MAX_PAGES && items.length < MAX_ITEMS);
  return items.slice(0, MAX_ITEMS);
}
