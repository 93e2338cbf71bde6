import { describe, expect, it } from 'vitest';
import { isSafePrincipal, playerPrincipal, slug } from '../../src/platform/principal-names';

describe('slug', () => {
  it('lowercases and turns each run of other characters into one underscore', () => {
    expect(slug('LSPD')).toBe('lspd');
    expect(slug('Senior Lieutenant')).toBe('senior_lieutenant');
    expect(slug('  Lt. -- 2nd Class  ')).toBe('lt_2nd_class');
    expect(slug('Ünïcode Rank')).toBe('n_code_rank');
    expect(slug('***')).toBe('');
  });

  it('leaves nothing a console could read as another command, argument or quote', () => {
    const hostile = [
      'Chief; add_ace builtin.everyone command allow',
      'Chief"\nquit',
      "Cap'tain\r\nrestart roster",
      'A\tB\u0000C',
      'x `y` $z',
    ];
    for (const name of hostile) {
      const part = slug(name);
      expect(part).toMatch(/^[a-z0-9_]*$/);
      expect(isSafePrincipal(`roster.${part}`)).toBe(true);
    }
    expect(slug('Chief; add_ace builtin.everyone command allow')).toBe(
      'chief_add_ace_builtin_everyone_command_allow',
    );
  });
});

describe('safe principal names', () => {
  it('accepts only slug parts joined by dots, or a license identifier', () => {
    expect(isSafePrincipal('roster.lspd.senior_lieutenant')).toBe(true);
    expect(isSafePrincipal(`identifier.license:${'ab'.repeat(20)}`)).toBe(true);
    expect(isSafePrincipal('roster.lspd captain')).toBe(false);
    expect(isSafePrincipal('roster.lspd;quit')).toBe(false);
    expect(isSafePrincipal('roster..lspd')).toBe(false);
    expect(isSafePrincipal('Roster.LSPD')).toBe(false);
    expect(isSafePrincipal(`identifier.license:${'a'.repeat(40)} roster.member`)).toBe(false);
  });

  it('makes a player principal only from license:<40 hex>', () => {
    expect(playerPrincipal(`license:${'A'.repeat(40)}`)).toBe(`identifier.license:${'a'.repeat(40)}`);
    expect(playerPrincipal('license:abc')).toBeNull();
    expect(playerPrincipal(`license2:${'a'.repeat(40)}`)).toBeNull();
    expect(playerPrincipal(`license:${'a'.repeat(40)};quit`)).toBeNull();
  });
});
