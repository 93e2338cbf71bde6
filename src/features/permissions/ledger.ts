import { isSafePrincipal, type PrincipalLink } from '../../platform/principal-names';

const HEADER = '# roster principal links v1: child parent';

/** What the resource has granted, one `child parent` line each; no key, no member data beyond the license. */
export function formatLedger(links: Iterable<PrincipalLink>): string {
  return `${HEADER}\n${formatLedgerLines(links)}`;
}

/** Lines to append to a ledger, each ending in a newline. */
export function formatLedgerLines(links: Iterable<PrincipalLink>): string {
  let text = '';
  for (const link of links) text += `${link.child} ${link.parent}\n`;
  return text;
}

/**
 * Reads a ledger back. Only lines of two safe principal names count: a ledger edited by hand (or
 * cut short) can never make the resource run anything but remove_principal on its own names.
 */
export function parseLedger(text: string): { links: PrincipalLink[]; skipped: number } {
  const links: PrincipalLink[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const parts = trimmed.split(' ');
    const [child, parent] = parts;
    if (parts.length !== 2 || !child || !parent || !isSafePrincipal(child) || !isSafePrincipal(parent)) {
      skipped++;
      continue;
    }
    links.push({ child, parent });
  }
  return { links, skipped };
}
