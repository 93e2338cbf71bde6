import { describe, expect, it } from 'vitest';
import { diffLinks } from '../../../src/features/permissions/link-diff';

describe('desired against granted', () => {
  it('adds what is missing and removes what is no longer wanted', () => {
    expect(diffLinks(new Set(['a', 'b', 'c']), new Set(['b', 'd']))).toEqual({
      add: ['a', 'c'],
      remove: ['d'],
    });
    expect(diffLinks(new Set(), new Set())).toEqual({ add: [], remove: [] });
  });
});
