/**
 * Deepest nesting looked into, and most values read from one entry. Entries the service writes are
 * a few levels deep with a handful of values; past these an entry is not read at all, so a hostile
 * or broken one costs a bounded walk and is reported, never half-read.
 */
export const MAX_ENTRY_DEPTH = 32;
export const MAX_ENTRY_VALUES = 10_000;

/** An entry deeper or larger than the feed reads. */
export class UnreadableEntryError extends Error {
  override readonly name = 'UnreadableEntryError';
}

/**
 * Every scalar value of an audit entry, at any depth, as text. The document does not show an
 * entry's fields, so nothing here depends on their names: keys are ignored, values are all that count.
 * Throws `UnreadableEntryError` past the bounds.
 */
export function entryValues(entry: unknown): Set<string> {
  const values = new Set<string>();
  const stack: [unknown, number][] = [[entry, 0]];
  let walked = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    walked++;
    if (typeof value === 'string') {
      if (value !== '' && value.length <= 200) values.add(value);
    } else if (typeof value === 'number' || typeof value === 'bigint') {
      values.add(String(value));
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_ENTRY_DEPTH)
        throw new UnreadableEntryError(`nested deeper than ${MAX_ENTRY_DEPTH} levels`);
      const children = Array.isArray(value) ? value : Object.values(value);
      if (walked + stack.length + children.length > MAX_ENTRY_VALUES)
        throw new UnreadableEntryError(`more than ${MAX_ENTRY_VALUES} values`);
      for (const child of children) stack.push([child, depth + 1]);
    }
  }
  return values;
}
