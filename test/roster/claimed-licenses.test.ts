import { describe, expect, it } from 'vitest';
import {
  ClaimedLicenses,
  claimedLicenseLines,
  MAX_CLAIMED_LICENSES,
  MAX_IDS_KEPT,
} from '../../src/roster/claimed-licenses';
import { license, recordingLogger } from './client/fake-roster';

function record(max?: number) {
  const { logger, lines } = recordingLogger();
  const claims = new ClaimedLicenses(logger, max);
  const warnings = () => lines.filter((line) => line.level === 'warn').map((line) => line.message);
  return { claims, warnings };
}

describe('licenses claimed by several members', () => {
  it('warns once per license, naming it, its members and the deciding one; a later sighting updates quietly', () => {
    const { claims, warnings } = record();
    claims.note(license(1), ['mem_old', 'mem_new'], 'mem_new');
    claims.note(license(1).toUpperCase().replace('LICENSE', 'license'), ['mem_old', 'mem_new'], 'mem_new');
    claims.note(license(1), ['mem_old', 'mem_new', 'mem_newer'], 'mem_newer');
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain(license(1));
    expect(warnings()[0]).toContain('mem_old');
    expect(warnings()[0]).toMatch(/the most recent membership, mem_new, decides/);
    expect(claims.list()).toEqual([
      {
        license: license(1),
        memberIds: ['mem_newer', 'mem_old', 'mem_new'],
        members: 3,
        deciding: 'mem_newer',
      },
    ]);
  });

  it('one member, or the same id twice, is no claim', () => {
    const { claims, warnings } = record();
    claims.note(license(1), ['mem_1'], 'mem_1');
    claims.note(license(2), ['mem_2', 'mem_2'], 'mem_2');
    claims.note('  ', ['a', 'b'], 'b');
    expect(claims.list()).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it('is bounded: past the licenses kept, one warning says there are more, and none is named again', () => {
    const { claims, warnings } = record();
    for (let round = 0; round < 3; round++)
      for (let n = 0; n < MAX_CLAIMED_LICENSES * 4; n++) claims.note(license(n), [`a${n}`, `b${n}`], `b${n}`);
    expect(claims.list()).toHaveLength(MAX_CLAIMED_LICENSES);
    expect(claims.more).toBe(true);
    expect(warnings()).toHaveLength(MAX_CLAIMED_LICENSES + 1);
    expect(new Set(warnings()).size).toBe(warnings().length);
    expect(warnings().at(-1)).toMatch(new RegExp(`More than ${MAX_CLAIMED_LICENSES} licenses`));
  });

  it('keeps a few member ids per license (the deciding one first) and how many there were', () => {
    const { claims, warnings } = record();
    const ids = Array.from({ length: 10_000 }, (_, n) => `mem_${n}`);
    claims.note(license(1), ids, 'mem_9999');
    const [claim] = claims.list();
    expect(claim?.memberIds).toHaveLength(MAX_IDS_KEPT);
    expect(claim?.memberIds[0]).toBe('mem_9999');
    expect(claim?.members).toBe(10_000);
    expect(warnings()[0]!.length).toBeLessThan(600);
    expect(warnings()[0]).toMatch(/and 9995 more/);
  });

  it('a hostile id can neither break a console line nor flood it', () => {
    const { claims, warnings } = record();
    claims.note(license(1), ['mem_1\n[roster] forged line', 'x'.repeat(5000)], 'mem_1\n[roster] forged line');
    expect(warnings()[0]).not.toContain('\n');
    expect(warnings()[0]!.length).toBeLessThan(600);
    expect(claims.list()[0]?.deciding).toBe('mem_1?[roster] forged line');
  });

  it("doctor's lines: one per license, shown as the reader may see it, and whether more were not named", () => {
    const { claims } = record(2);
    expect(claimedLicenseLines(claims)).toEqual([
      '✓ licenses: none was seen claimed by several members since the start.',
    ]);
    claims.note(license(1), ['mem_old', 'mem_new'], 'mem_new');
    expect(claimedLicenseLines(claims, (l) => `${l.slice(0, 12)}…`)).toEqual([
      '! licenses claimed by several members: 1; the most recent membership decides for each.',
      `  ${license(1).slice(0, 12)}…: mem_new decides (members mem_new, mem_old).`,
    ]);
    claims.note(license(2), ['a', 'b'], 'b');
    claims.note(license(3), ['c', 'd'], 'd');
    const lines = claimedLicenseLines(claims);
    expect(lines[0]).toBe(
      '! licenses claimed by several members: 2 listed, more not named; the most recent membership decides for each.',
    );
    expect(lines.slice(1)).toEqual([
      `  ${license(1)}: mem_new decides (members mem_new, mem_old).`,
      `  ${license(2)}: b decides (members b, a).`,
    ]);
  });
});
