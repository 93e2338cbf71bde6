import type { z } from 'zod';

/** True when `issue` is a bound of the same kind as `kept` that says more (closer to the key's range). */
export function tighter(issue: z.core.$ZodIssue, kept: z.core.$ZodIssue): boolean {
  if (issue.code === 'too_big' && kept.code === 'too_big')
    return Number(issue.maximum) < Number(kept.maximum);
  if (issue.code === 'too_small' && kept.code === 'too_small')
    return Number(issue.minimum) > Number(kept.minimum);
  return false;
}

/** What a list holds, shown when something else is given. */
const LIST_EXAMPLES: Record<string, string> = {
  'gate.requireStatus': 'a list (e.g. ["ACTIVE"])',
  'gate.departments': 'a list (e.g. ["LSPD"])',
  'queue.priority': 'a list of rules (e.g. [{ "department": "LSPD", "minRank": "Sergeant", "power": 50 }])',
};

/** The keys an object takes, where a misspelt one is likely: a queue.priority rule. */
function acceptedKeys(key: string): string {
  return /^queue\.priority\.\d+$/.test(key)
    ? 'a rule takes only department, minRank and power.'
    : 'check the spelling against config.example.json.';
}

export function describeIssue(issue: z.core.$ZodIssue, raw: unknown, secrets: readonly string[]): string {
  const key = issue.path.map(String).join('.') || '(top level)';
  const given = `; it is ${shownValue(valueAt(raw, issue.path), secrets)}`;
  switch (issue.code) {
    case 'unrecognized_keys':
      return `config.json: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys
        .map((k) => (key === '(top level)' ? k : `${key}.${k}`))
        .join(', ')}: ${acceptedKeys(key)}`;
    case 'invalid_value':
      return `config.json: ${key} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}${given}.`;
    case 'invalid_type':
      return `config.json: ${key} must be ${article(issue.expected, key)}${given}.`;
    case 'too_small':
      return `config.json: ${key} must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters long' : ''}${given}.`;
    case 'too_big':
      return `config.json: ${key} must be at most ${String(issue.maximum)}${given}.`;
    default:
      return `config.json: ${key}: ${issue.message}.`;
  }
}

/** The value config.json holds at `path` (undefined when it holds none). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let node = raw;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

const SHOWN_CHARACTERS = 40;

/**
 * A wrong value as a problem may print it: JSON, cut to a few dozen characters. A key pasted into
 * the wrong place stays hidden: the configured keys, and anything shaped like a roster key.
 */
function shownValue(value: unknown, secrets: readonly string[]): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  if (secrets.some((secret) => text.includes(secret)) || /[^_\s"]+_[^_\s"]+_[^\s"]{8,}/.test(text))
    return 'a value shaped like an API key (not shown)';
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
}

function article(expected: string, key: string): string {
  if (expected === 'array') return LIST_EXAMPLES[key] ?? 'a list';
  if (expected === 'object' || expected === 'record') return 'an object';
  if (expected === 'int') return 'a whole number';
  return `a ${expected}`;
}
