import { describe, expect, it } from 'vitest';
import { SCOPE_USES, scopeLines, scopeWarnings } from '../../../src/roster/client/scope-warnings';

const EVERY_SCOPE = ['roster:read', 'departments:read', 'audit:read', 'roster:write', 'timelogs:read'];

describe("roster doctor's scope check", () => {
  it('passes a key with every scope the resource uses, naming them', () => {
    expect(scopeLines(EVERY_SCOPE)).toEqual([
      '✓ scopes: the key has every scope the resource uses (roster:read, departments:read, audit:read, roster:write, timelogs:read).',
    ]);
    // Either write scope is enough for rank changes; a write scope includes its group's read.
    expect(scopeLines(['roster:write', 'departments:write', 'audit:read', 'timelogs:read'])).toEqual([
      '✓ scopes: the key has every scope the resource uses (roster:read, departments:read, audit:read, roster:write and departments:write, timelogs:read).',
    ]);
  });

  it('names each scope missing and what its absence turns off', () => {
    const lines = scopeLines(['roster:read']);
    expect(lines[0]).toBe(
      '✗ scopes: the key lacks 4 scopes the resource uses; add them to the key in the roster dashboard (Settings, API Keys):',
    );
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ {2}✗ departments:read \(department and rank names\): .*gate\.departments/),
      expect.stringMatching(
        /^ {2}! audit:read \(the roster mirror and the change feed\): every join is looked up, and changes .* only with the periodic refresh/,
      ),
      '  ! roster:write or departments:write (rank changes): the `rank` command and setRank are refused.',
      '  ! timelogs:read (duty hours): duty hours are unknown (getDutyHours answers null).',
    ]);
  });

  it('marks the check ! when only parts beside the gate are off', () => {
    expect(scopeLines(['roster:read', 'departments:read', 'audit:read', 'timelogs:read'])).toEqual([
      '! scopes: the key lacks a scope the resource uses; add it to the key in the roster dashboard (Settings, API Keys):',
      '  ! roster:write or departments:write (rank changes): the `rank` command and setRank are refused.',
    ]);
  });

  it('a key without roster:read (a roster write scope would include it) cannot check joins', () => {
    expect(scopeLines(['departments:write', 'audit:read', 'timelogs:read'])[1]).toMatch(
      /^ {2}✗ roster:read \(joins\): members cannot be looked up, so joining players cannot be checked/,
    );
  });

  it('covers every scope the README lists, each with what it turns off', () => {
    expect(SCOPE_USES.map((use) => use.anyOf.join(' or '))).toEqual([
      'roster:read',
      'departments:read',
      'audit:read',
      'roster:write or departments:write',
      'timelogs:read',
    ]);
  });
});

describe('scope warnings at start', () => {
  it('warn only for the scopes the gate needs, saying what is off', () => {
    expect(scopeWarnings(['roster:read', 'departments:read'])).toEqual([]);
    expect(scopeWarnings(['departments:read'])).toEqual([
      'The roster API key lacks the scope roster:read: members cannot be looked up, so joining players cannot be checked (gate.onError decides every join). Add it to the key in the roster dashboard (Settings, API Keys).',
    ]);
  });
});
