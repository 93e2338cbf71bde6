import { seededRandom } from '../mock-http/seeded-random';
import type { RosterStore } from '../mock-roster/roster-store';

/** A player the benchmark connects, with what the mock's data says the gate must decide. */
export interface BenchPlayer {
  name: string;
  license: string;
  /** The mock's truth: only ACTIVE members may join. */
  shouldAdmit: boolean;
}

/**
 * `count` distinct players in a shuffled order: members `firstMember…` of the seeded roster (any
 * status) and, for `strangerShare` of them, licenses the roster does not hold.
 */
export function choosePlayers(
  store: RosterStore,
  count: number,
  options: { strangerShare?: number; firstMember?: number; seed?: number } = {},
): BenchPlayer[] {
  const strangers = Math.round(count * (options.strangerShare ?? 0.2));
  const first = options.firstMember ?? 0;
  const players: BenchPlayer[] = [];
  for (let i = 0; i < count - strangers; i++) {
    const member = store.members[first + i];
    if (!member) throw new Error(`the mock roster has fewer than ${first + count - strangers} members`);
    players.push({
      name: member.displayName,
      license: member.gameLicense,
      shouldAdmit: member.status === 'ACTIVE',
    });
  }
  for (let n = 0; n < strangers; n++) {
    players.push({ name: `Stranger ${n}`, license: store.nonMemberLicense(first + n), shouldAdmit: false });
  }
  const random = seededRandom(options.seed ?? 42);
  for (let i = players.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [players[i], players[j]] = [players[j]!, players[i]!];
  }
  return players;
}
