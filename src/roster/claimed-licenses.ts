import type { Logger } from '../platform/ports';

/** One license the roster lists for several members, and the membership that decides for it. */
export interface LicenseClaim {
  /** Trimmed and lower-cased, as licenses are matched. */
  readonly license: string;
  /** The members claiming it when last seen, the deciding one first (at most `MAX_IDS_KEPT`). */
  readonly memberIds: readonly string[];
  /** How many members claimed it when last seen (more than `memberIds` holds when cut). */
  readonly members: number;
  /** The most recent membership: the one whose record decides for the license. */
  readonly deciding: string;
}

/** Where whoever reads member records tells of a license several members claim. */
export interface LicenseClaims {
  /** `memberIds` claim `license`; `deciding` is the most recent membership. Fewer than two ids: nothing. */
  note(license: string, memberIds: readonly string[], deciding: string): void;
}

/** Licenses kept at most: a service listing every license twice cannot grow the record past this. */
export const MAX_CLAIMED_LICENSES = 50;
/** Member ids kept per license; the count says how many there were. */
export const MAX_IDS_KEPT = 5;
/** Longer ids and licenses are cut in what is kept and said, so a hostile one cannot flood the console. */
const MAX_TEXT_LENGTH = 64;
const MAX_LICENSE_LENGTH = 160;

/**
 * The licenses seen claimed by several members since the start (a member who left and came back
 * has an old and a new membership), for `roster doctor` and the panel. Each is warned about once,
 * the first time it is seen; a later sighting only updates what is listed. Past
 * `MAX_CLAIMED_LICENSES`, further licenses are neither kept nor warned about one by one: a single
 * warning says there are more.
 */
export class ClaimedLicenses implements LicenseClaims {
  private readonly claims = new Map<string, LicenseClaim>();
  private overflowed = false;

  constructor(
    private readonly logger: Logger,
    private readonly maxLicenses = MAX_CLAIMED_LICENSES,
  ) {}

  note(license: string, memberIds: readonly string[], deciding: string): void {
    const key = printable(license.trim().toLowerCase(), MAX_LICENSE_LENGTH);
    const ids = [...new Set(memberIds.map((id) => printable(id, MAX_TEXT_LENGTH)))];
    if (key === '' || ids.length < 2) return;
    const first = printable(deciding, MAX_TEXT_LENGTH);
    const claim: LicenseClaim = {
      license: key,
      memberIds: [first, ...ids.filter((id) => id !== first)].slice(0, MAX_IDS_KEPT),
      members: ids.length,
      deciding: first,
    };
    if (this.claims.has(key)) {
      this.claims.set(key, claim);
      return;
    }
    if (this.claims.size >= this.maxLicenses) {
      if (!this.overflowed)
        this.logger.warn(
          `More than ${this.maxLicenses} licenses are each claimed by several members on the roster; the most recent membership decides for each. The first ${this.maxLicenses} are listed by \`roster doctor\`; the others are not named.`,
        );
      this.overflowed = true;
      return;
    }
    this.claims.set(key, claim);
    this.logger.warn(
      `The roster lists ${ids.length} members for ${key} (${describeIds(claim)}): the most recent membership, ${first}, decides for this license. Said once per license; \`roster doctor\` lists them.`,
    );
  }

  /** The licenses kept, in the order first seen. */
  list(): LicenseClaim[] {
    return [...this.claims.values()];
  }

  /** True once a license was seen past the ones kept. */
  get more(): boolean {
    return this.overflowed;
  }
}

/** `roster doctor`'s lines; `shown` writes a license as the reader may see it. */
export function claimedLicenseLines(
  claims: ClaimedLicenses,
  shown: (license: string) => string = (license) => license,
): string[] {
  const listed = claims.list();
  if (listed.length === 0) return ['✓ licenses: none was seen claimed by several members since the start.'];
  const lines = [
    `! licenses claimed by several members: ${listed.length}${claims.more ? ' listed, more not named' : ''}; the most recent membership decides for each.`,
  ];
  for (const claim of listed)
    lines.push(`  ${shown(claim.license)}: ${claim.deciding} decides (members ${describeIds(claim)}).`);
  return lines;
}

function describeIds(claim: LicenseClaim): string {
  const more = claim.members - claim.memberIds.length;
  return more > 0 ? `${claim.memberIds.join(', ')} and ${more} more` : claim.memberIds.join(', ');
}

/** As said on one console line: control characters (a forged line break) shown as `?`, cut to `max`. */
function printable(text: string, max: number): string {
  const plain = text.replace(/\p{Cc}/gu, '?');
  return plain.length > max ? `${plain.slice(0, max)}…` : plain;
}
