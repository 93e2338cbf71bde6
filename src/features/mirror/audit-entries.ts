import { entryValues } from '../audit/entry-values';
import type { MirrorReads } from './mirror-reads';
import type { RosterMirror } from './roster-mirror';

/**
 * Entries a read of the audit log brought: every value in them is named, so a read under way
 * reads again the members a change named (an entry that cannot be read is the feed's gap to
 * report, which stops the mirror deciding anyway).
 */
export function nameEntries(
  fresh: readonly unknown[],
  mirror: Pick<RosterMirror, 'named' | 'namesAnyHeld'>,
  reads: Pick<MirrorReads, 'wantNewMembers'>,
): void {
  for (const entry of fresh) {
    let values: Set<string>;
    try {
      values = entryValues(entry);
    } catch {
      // Unreadable: the feed reports it as a gap.
      continue;
    }
    mirror.named(values);
    // About no one held: perhaps a member created since, perhaps on a license an older
    // membership holds. Those are read at the next pass, not at the next 10-minute read.
    if (!mirror.namesAnyHeld(values)) reads.wantNewMembers();
  }
}
