import type { RankOrder } from '../../roster/catalog-index';
import { CatalogIndex } from '../../roster/catalog-index';
import { checkAssumptions } from '../../roster/client/openapi-check';
import { scopeLines } from '../../roster/client/scope-warnings';
import type { Catalog, KeyIdentity, MemberLookup } from '../../roster/model';
import { type ChangeSettings, changeLines } from '../ranks/change-checks';

/** The calls `roster doctor` makes; each may reject with an error whose message says what is wrong. */
export interface DoctorProbe {
  whoami(): Promise<KeyIdentity>;
  openapi(): Promise<unknown>;
  /** A license of some member, to prove lookups by license work (`null` when the roster is empty). */
  sampleLicense(): Promise<string | null>;
  lookup(license: string): Promise<MemberLookup | null>;
  catalog(): Promise<Catalog>;
}

/** Plain-words checks of the key, its scopes, the plan, the IP and what the resource relies on. */
export async function runDoctor(
  probe: DoctorProbe,
  order: RankOrder,
  changes?: ChangeSettings,
): Promise<string[]> {
  const lines: string[] = [];
  let identity: KeyIdentity;
  try {
    identity = await probe.whoami();
  } catch (error) {
    lines.push(`✗ key: ${messageOf(error)}`);
    lines.push('  Nothing else can be checked until the key works.');
    return lines;
  }
  lines.push(
    `✓ key works; community "${identity.community.name}"; plan active; this server's address is allowed.`,
  );
  lines.push(...scopeLines(identity.scopes));
  if (changes) lines.push(...changeLines(identity.scopes, changes));

  try {
    const checks = checkAssumptions(await probe.openapi());
    const confirmed = checks.filter((c) => c.verdict === 'confirmed').length;
    lines.push(
      `${confirmed === checks.length ? '✓' : '!'} API description confirms ${confirmed} of ${checks.length} assumptions.`,
    );
    for (const check of checks.filter((c) => c.verdict !== 'confirmed')) {
      lines.push(`  ${check.verdict}: ${check.assumption}${check.detail ? ` (${check.detail})` : ''}`);
    }
  } catch (error) {
    lines.push(`! API description: could not read /api/v1/openapi.json: ${messageOf(error)}`);
  }

  try {
    const license = await probe.sampleLicense();
    if (license === null)
      lines.push('! members: the roster has no member with a game license to test a lookup with.');
    else {
      const found = await probe.lookup(license);
      if (found) {
        lines.push(
          `✓ members can be found by license (${found.member.name}: ${found.assignments.length} department assignment(s)).`,
        );
      } else
        lines.push('✗ members: a license listed by the service was not found when looked up by license.');
    }
  } catch (error) {
    lines.push(`✗ members: ${messageOf(error)}`);
  }

  try {
    const catalog = new CatalogIndex(await probe.catalog());
    lines.push(
      `✓ departments read: ${catalog.catalog.departments.length}; ranks: ${catalog.catalog.ranks.length}.`,
    );
    lines.push(`  Rank ladders, most senior first (ranks.order = ${order}):`);
    for (const department of catalog.catalog.departments) {
      const ladder = catalog.ladder(department.id, order).map((r) => `${r.name} (${r.position})`);
      const label = department.shortName ? `${department.shortName} — ${department.name}` : department.name;
      lines.push(`  ${label}: ${ladder.length > 0 ? ladder.join(' > ') : 'no ranks'}`);
    }
  } catch (error) {
    lines.push(`✗ departments: ${messageOf(error)}`);
  }
  return lines;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
