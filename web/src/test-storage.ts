// Web Storage for tests: one kept in memory (its items readable), and one that refuses every
// call, as a browser's private mode or a full quota may.
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
    key: (i: number) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

const refuse = () => {
  throw new Error("denied");
};

export const refusingStorage = { getItem: refuse, setItem: refuse, removeItem: refuse };
