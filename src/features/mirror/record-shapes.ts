import type { ApiAssignment, ApiRank, MemberLookup } from '../../roster/model';
import {
  type MirroredAssignment,
  type MirroredMember,
  mirroredAssignment,
  mirroredMember,
} from './mirrored-member';

/** Distinct expanded ranks shared at most: a community has dozens; past this each keeps its own. */
const MAX_SHARED_RANKS = 10_000;

/** Records read from the service shaped for the mirror, their expanded ranks shared. */
export class RecordShapes {
  private readonly ranks = new Map<string, ApiRank>();

  /** A member with their own assignments only. */
  compact(lookup: MemberLookup): MirroredMember {
    const own = lookup.assignments.filter((a) => a.memberId === lookup.member.id);
    return mirroredMember(
      lookup.member,
      own.map((a) => this.assignment(a)),
    );
  }

  assignment(assignment: ApiAssignment): MirroredAssignment {
    return mirroredAssignment(assignment, (rank) => this.sharedRank(rank));
  }

  clear(): void {
    this.ranks.clear();
  }

  private sharedRank(rank: ApiRank): ApiRank {
    const known = this.ranks.get(rank.id);
    if (known && known.name === rank.name && known.position === rank.position) return known;
    if (this.ranks.size >= MAX_SHARED_RANKS && !known) return rank;
    this.ranks.set(rank.id, rank);
    return rank;
  }
}
