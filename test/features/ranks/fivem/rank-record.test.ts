import { describe, expect, it } from 'vitest';
import { rankLogLine } from '../../../../src/features/ranks/fivem/rank-record';
import type { RankChange } from '../../../../src/features/ranks/rank-changes';

/** Every character some log reader ends a line at (ECMAScript, Unicode, Python's splitlines). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these characters are what the test is about
const LINE_BREAKS = /\r\n|[\n\v\f\r\u001c-\u001e\u0085\u2028\u2029]/;

const hostile = 'Otto\u2028actor="console"\u0085to="Chief"\u007f\r\nx\u001b[2J\u009b\u202e\u2029';

function change(overrides: Partial<RankChange['target']> = {}): RankChange {
  return {
    actor: { src: '1', name: `Cara${hostile}`, license: `license:${'a'.repeat(40)}` },
    target: { src: '2', name: hostile, memberId: 'mem_1\nforged="yes"', ...overrides },
    department: {
      id: 'd',
      name: 'Police',
      shortName: `LS\u2028PD`,
      primary: true,
      callsign: null,
      rank: null,
    },
    from: { id: 'r1', name: 'Officer\u0085', position: 7 },
    to: { id: 'r2', name: 'Sergeant\u007f', position: 5 },
  };
}

describe('rank-changes.log lines', () => {
  it('are one line whatever the names hold: every control and line separator is escaped', () => {
    const line = rankLogLine(change(), Date.UTC(2025, 5, 2, 12));
    expect(line.split(LINE_BREAKS)).toHaveLength(1);
    expect(line).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    expect(line).toContain('\\u2028');
    expect(line).toContain('\\u0085');
    expect(line).toContain('\\u007f');
    expect(line).toContain('\\u009b');
  });

  it('quotes every field, the member id and the license too, and reads back as written', () => {
    const line = rankLogLine(change(), Date.UTC(2025, 5, 2, 12));
    expect(line.startsWith('2025-06-02T12:00:00.000Z actor="Cara')).toBe(true);
    const fields = [...line.matchAll(/ ([a-z_]+)=("(?:[^"\\]|\\.)*")(?= |$)/g)].map(
      ([, key, value]) => [key, JSON.parse(value!)] as const,
    );
    expect(fields).toEqual([
      ['actor', `Cara${hostile}`.slice(0, 64)],
      ['actor_player', '1'],
      ['actor_license', `license:${'a'.repeat(40)}`],
      ['target', hostile],
      ['target_player', '2'],
      ['member', 'mem_1\nforged="yes"'],
      ['department', 'LS\u2028PD'],
      ['from', 'Officer\u0085'],
      ['to', 'Sergeant\u007f'],
    ]);
    // Nothing outside the quotes but the time, keys and single spaces.
    const outside = line.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    expect(outside).toMatch(/^\S+Z( [a-z_]+="")+$/);
  });

  it('names the console as the actor without a player or license', () => {
    const line = rankLogLine(
      { ...change(), actor: { src: null, name: 'console', license: null } },
      Date.UTC(2025, 5, 2, 12),
    );
    expect(line).toContain(' actor="console" target=');
  });
});
