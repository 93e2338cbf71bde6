/** Deepest nesting looked into, and most values read from one entry: a hostile entry stays cheap. */
const MAX_DEPTH = 12;
const MAX_NODES = 5_000;

/**
 * Every scalar value of an audit entry, at any depth, as text. The document does not show an
 * entry's fields, so nothing here depends on their names: keys are ignored, values are all that count.
 */
export function entryValues(entry: unknown): Set<string> {
  const values = new Set<string>();
  const stack: [unknown, number][] = [[entry, 0]];
  let nodes = 0;
  while (stack.length > 0 && nodes < MAX_NODES) {
    const [value, depth] = stack.pop()!;
    nodes++;
    if (typeof value === 'string') {
      if (value !== '' && value.length <= 200) values.add(value);
    } else if (typeof value === 'number' || typeof value === 'bigint') {
      values.add(String(value));
    } else if (typeof value === 'object' && value !== null && depth < MAX_DEPTH) {
      const children = Array.isArray(value) ? value : Object.values(value);
      for (const child of children) stack.push([child, depth + 1]);
    }
  }
  return values;
}
