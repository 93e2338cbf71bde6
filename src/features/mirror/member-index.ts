import type { LicenseClaims } from '../../roster/claimed-licenses';
import { isNewerMembership } from '../../roster/newest-membership';
import { licenseKey, type MirroredMember, membershipOf, sharedLicenses } from './mirrored-member';

/**
 * What a change did to the members held, for whoever keeps a copy elsewhere (the shared roster):
 * the members put (whole records), the member ids no longer held, and the members held whose
 * records came into doubt (a change named them and their re-read failed: not answered until the
 * service answers for them).
 */
export type MirrorChangeListener = (
  put: readonly MirroredMember[],
  removed: readonly string[],
  doubted?: readonly MirroredMember[],
) => void;

/** What a copy of the roster kept elsewhere (the shared roster) brings to the members held. */
export interface CopiedRows {
  put: readonly MirroredMember[];
  /** Members no longer held, as of when that was learned (the time that judges it against a record). */
  removed: readonly { id: string; readAt: number }[];
  /** Ids of members put whose records are doubted: held as last known only, not answered. */
  doubted?: ReadonlySet<string>;
}

/**
 * The members held, by license key, with the member ids and assignment ids that lead to them: a
 * member whose license changed leaves no stale entry behind, and an audit entry naming only an
 * assignment finds its member. Where several members claim one license, the most recent membership
 * is held and the claim noted.
 */
export class MemberIndex {
  private byLicense = new Map<string, MirroredMember>();
  private licenseById = new Map<string, string>();
  private licenseByAssignment = new Map<string, string>();

  constructor(private readonly claims: LicenseClaims) {}

  get size(): number {
    return this.byLicense.size;
  }

  get(key: string): MirroredMember | undefined {
    return this.byLicense.get(key);
  }

  values(): IterableIterator<MirroredMember> {
    return this.byLicense.values();
  }

  /** The license key of the member held whose member id or assignment id is `id`. */
  licenseNamedBy(id: string): string | undefined {
    return this.licenseById.get(id) ?? this.licenseByAssignment.get(id);
  }

  /**
   * Holds `members` (stamped `readAt` unless null: restored records keep theirs). Where several
   * claim one license, among them and with the one held, the most recent membership is held.
   */
  putAll(members: MirroredMember[], readAt: number | null): void {
    const shared = sharedLicenses(members);
    for (const member of members) {
      if (readAt !== null) member.readAt = readAt;
      const key = licenseKey(member.license);
      const claims = shared.get(key);
      if (claims !== undefined && claims[0] !== member) continue;
      const holder = this.byLicense.get(key);
      if (holder !== undefined && holder.id !== member.id) {
        const newer = isNewerMembership(membershipOf(member), membershipOf(holder));
        const ids = newer ? [member.id, holder.id] : [holder.id, member.id];
        this.claims.note(key, ids, ids[0]!);
        if (!newer) continue;
      }
      this.put(member);
    }
    for (const [key, claims] of shared)
      this.claims.note(
        key,
        claims.map((m) => m.id),
        claims[0]!.id,
      );
  }

  clear(): void {
    this.byLicense = new Map();
    this.licenseById = new Map();
    this.licenseByAssignment = new Map();
  }

  put(member: MirroredMember): void {
    const key = licenseKey(member.license);
    const previous = this.licenseById.get(member.id);
    if (previous !== undefined && previous !== key) this.byLicense.delete(previous);
    const replaced = this.byLicense.get(key);
    if (replaced && replaced.id !== member.id) this.licenseById.delete(replaced.id);
    if (replaced) this.unindexAssignments(replaced);
    this.byLicense.set(key, member);
    this.licenseById.set(member.id, key);
    for (const assignment of member.assignments) this.licenseByAssignment.set(assignment.id, key);
  }

  private unindexAssignments(member: MirroredMember): void {
    for (const assignment of member.assignments) this.licenseByAssignment.delete(assignment.id);
  }

  remove(key: string): void {
    const member = this.byLicense.get(key);
    if (!member) return;
    this.byLicense.delete(key);
    this.licenseById.delete(member.id);
    this.unindexAssignments(member);
  }
}
