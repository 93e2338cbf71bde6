import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCUMENTED_EXPORTS } from '../../src/features/exports/documented-exports';

// The Lua language server's annotations: a Lua author reads there which exports wait.
const annotations = readFileSync(resolve(import.meta.dirname, '../../types/roster.lua'), 'utf8');
const registered = Object.entries(DOCUMENTED_EXPORTS);

describe('types/roster.lua', () => {
  it('annotates every export the resource registers, and no other', () => {
    const annotated = [...annotations.matchAll(/^function RosterExports:(\w+)\(/gm)].map((m) => m[1]!);
    expect(annotated.sort()).toEqual(registered.map(([name]) => name).sort());
  });

  it('lists exactly the async exports as the ones to call inside a thread', () => {
    // The comment's lines joined into one text, so the list may wrap.
    const header = /Async exports \(([^)]*)\)/.exec(annotations.replace(/\n-- /g, ' '))?.[1] ?? '';
    const listed = header.split(',').map((name) => name.trim());
    const async = registered.filter(([, spec]) => 'async' in spec && spec.async).map(([name]) => name);
    expect(listed.sort()).toEqual(async.sort());
  });
});
