import { describe, expect, it } from 'vitest';
import { formatLedger, parseLedger } from '../../../src/features/permissions/ledger';

const player = `identifier.license:${'c'.repeat(40)}`;

describe('ledger', () => {
  it('round-trips links', () => {
    const links = [
      { child: 'roster.lspd.officer', parent: 'roster.lspd' },
      { child: player, parent: 'roster.member' },
    ];
    const text = formatLedger(links);
    expect(text.startsWith('#')).toBe(true);
    expect(parseLedger(text)).toEqual({ links, skipped: 0 });
  });

  it('skips lines that are not two safe principal names, so a tampered ledger runs nothing else', () => {
    const text = [
      '# header',
      `${player} roster.member`,
      'roster.a roster.b; quit',
      'roster.a "roster.b"',
      'roster.a roster.b roster.c',
      `${player} roster.lspd`,
      'only_one',
      '',
      'roster.half',
    ].join('\n');
    expect(parseLedger(text)).toEqual({
      links: [
        { child: player, parent: 'roster.member' },
        { child: player, parent: 'roster.lspd' },
      ],
      skipped: 5,
    });
  });
});
