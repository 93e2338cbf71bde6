import { describe, expect, it } from 'vitest';
import {
  entryValues,
  MAX_ENTRY_DEPTH,
  MAX_ENTRY_VALUES,
  UnreadableEntryError,
} from '../../../src/features/audit/entry-values';

function nested(depth: number, bottom: unknown = 'bottom'): unknown {
  let value = bottom;
  for (let i = 0; i < depth; i++) value = { next: value };
  return value;
}

describe('entryValues', () => {
  it('collects every scalar value at any depth, ignoring keys', () => {
    const values = entryValues({ a: 'x', b: { c: ['y', 3, { d: 'z' }] }, memberId: null });
    expect([...values].sort()).toEqual(['3', 'x', 'y', 'z']);
    expect(values.has('memberId')).toBe(false);
  });

  it('reads an entry nested to the bound', () => {
    expect(entryValues(nested(MAX_ENTRY_DEPTH)).has('bottom')).toBe(true);
  });

  it('refuses an entry nested deeper, however deep, without walking it all', () => {
    expect(() => entryValues(nested(MAX_ENTRY_DEPTH + 1))).toThrow(UnreadableEntryError);
    expect(() => entryValues(nested(200_000))).toThrow(/nested deeper than/);
  });

  it('refuses an entry with more values than the bound', () => {
    const wide = { list: Array.from({ length: MAX_ENTRY_VALUES + 1 }, (_, i) => `v${i}`) };
    expect(() => entryValues(wide)).toThrow(/more than/);
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, Array(60).fill(i)]));
    expect(() => entryValues(many)).toThrow(UnreadableEntryError);
  });
});
