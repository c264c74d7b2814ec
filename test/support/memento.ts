/** An in-memory `vscode.Memento` for tests of what the extension keeps in its global or workspace state. */
export function memento() {
  const values = new Map<string, unknown>();
  return {
    get: (k: string) => values.get(k),
    update: async (k: string, v: unknown) => void values.set(k, v),
    keys: () => [...values.keys()],
  };
}
