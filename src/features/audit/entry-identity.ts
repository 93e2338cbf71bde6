/** `createdAt` is documented for every resource; anything unreadable gives NaN. */
export function createdAtOf(entry: unknown): number {
  if (typeof entry !== 'object' || entry === null) return Number.NaN;
  const value = (entry as { createdAt?: unknown }).createdAt;
  return typeof value === 'string' ? Date.parse(value) : Number.NaN;
}

/** The distinct readable stamps of these entries, newest first. */
export function distinctStamps(entries: readonly unknown[]): number[] {
  const all = new Set<number>();
  for (const entry of entries) {
    const at = createdAtOf(entry);
    if (!Number.isNaN(at)) all.add(at);
  }
  return [...all].sort((a, b) => b - a);
}

/** The entry's id when it has one, else its text (cut short): what tells entries apart. */
export function entryKey(entry: unknown): string {
  const id = entryId(entry);
  if (id !== null) return `id:${id}`;
  let text: string;
  try {
    text = JSON.stringify(entry) ?? String(entry);
  } catch {
    // Nested too deep to write out: its stamp and top-level keys still tell most entries apart.
    text = `${createdAtOf(entry)}:${typeof entry === 'object' && entry !== null ? Object.keys(entry).join(',') : String(entry)}`;
  }
  return `text:${text.slice(0, 4_000)}`;
}

/** The entry's `id` as text, or null when it has none usable. */
export function entryId(entry: unknown): string | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const id = (entry as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id).slice(0, 100) : null;
}
