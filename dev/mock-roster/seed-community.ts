import { hexDigest, pick, seededRandom } from '../mock-http/seeded-random';
import { DEPARTMENT_TEMPLATES } from './catalog';
import { FIRST_NAMES, LAST_NAMES } from './names';
import type {
  MemberStatus,
  MockAssignment,
  MockAuditEntry,
  MockCommunity,
  MockDepartment,
  MockDutySession,
  MockMember,
  MockRank,
} from './records';

export const MAX_MEMBERS = 50_000;

/** Everything the mock serves; the store wraps it with indexes and mutation helpers. */
export interface CommunityData {
  community: MockCommunity;
  departments: MockDepartment[];
  ranks: MockRank[];
  members: MockMember[];
  assignments: MockAssignment[];
  dutySessions: MockDutySession[];
  auditLogs: MockAuditEntry[];
}

// Fixed dates keep the data identical from run to run whatever the (possibly fake) clock says.
const CATALOG_CREATED = '2022-01-01T00:00:00.000Z';
const JOIN_FROM = Date.UTC(2022, 0, 1);
const JOIN_TO = Date.UTC(2025, 4, 1);
const DUTY_FROM = Date.UTC(2025, 4, 1);
const DUTY_SPAN_MS = 30 * 86_400_000;
const DUTY_MEMBERS = 2_000;

export function memberId(index: number): string {
  return `mem_${String(index + 1).padStart(5, '0')}`;
}

/** The license of seeded member `index`, a pure function of seed and index. */
export function licenseFor(seed: number, index: number): string {
  return `license:${hexDigest('member', seed, index)}`;
}

/** A license no seeded member holds (a different derivation, so it can never collide). */
export function nonMemberLicenseFor(seed: number, n: number): string {
  return `license:${hexDigest('outsider', seed, n)}`;
}

// Members 0–4 are fixtures with a known status; the rest are drawn mostly ACTIVE.
const FIXTURE_STATUSES: readonly MemberStatus[] = ['ACTIVE', 'SUSPENDED', 'LOA', 'INACTIVE', 'TERMINATED'];

function drawStatus(random: () => number): MemberStatus {
  const r = random();
  if (r < 0.82) return 'ACTIVE';
  if (r < 0.87) return 'SUSPENDED';
  if (r < 0.92) return 'LOA';
  if (r < 0.97) return 'INACTIVE';
  return 'TERMINATED';
}

function drawDepartment(random: () => number): number {
  const total = DEPARTMENT_TEMPLATES.reduce((sum, d) => sum + d.weight, 0);
  let r = random() * total;
  for (const [i, d] of DEPARTMENT_TEMPLATES.entries()) {
    r -= d.weight;
    if (r < 0) return i;
  }
  return 0;
}

function buildCatalog(): { departments: MockDepartment[]; ranks: MockRank[] } {
  const departments: MockDepartment[] = [];
  const ranks: MockRank[] = [];
  for (const template of DEPARTMENT_TEMPLATES) {
    const id = `dept_${template.key}`;
    departments.push({ id, name: template.name, shortName: template.shortName, createdAt: CATALOG_CREATED });
    template.ranks.forEach((name, i) => {
      ranks.push({
        id: `rank_${template.key}_${i + 1}`,
        departmentId: id,
        name,
        position: i + 1,
        createdAt: CATALOG_CREATED,
      });
    });
  }
  return { departments, ranks };
}

export function seedCommunity(options: { seed: number; members: number }): CommunityData {
  const count = Math.max(0, Math.min(MAX_MEMBERS, Math.floor(options.members)));
  const random = seededRandom(options.seed);
  const { departments, ranks } = buildCatalog();
  const members: MockMember[] = [];
  const assignments: MockAssignment[] = [];
  const dutySessions: MockDutySession[] = [];
  const callsignCounters = new Map<string, number>();

  const assign = (member: MockMember, deptIndex: number, isPrimary: boolean): MockAssignment => {
    const template = DEPARTMENT_TEMPLATES[deptIndex] ?? DEPARTMENT_TEMPLATES[0]!;
    // Skew towards junior ranks: most of a department sits at the bottom of the ladder.
    const depth = Math.floor(Math.sqrt(random()) * template.ranks.length);
    const position = Math.min(template.ranks.length, depth + 1);
    const next = (callsignCounters.get(template.key) ?? 100) + 1;
    callsignCounters.set(template.key, next);
    const record: MockAssignment = {
      id: `asg_${String(assignments.length + 1).padStart(6, '0')}`,
      memberId: member.id,
      departmentId: `dept_${template.key}`,
      rankId: `rank_${template.key}_${position}`,
      isPrimary,
      callsign: template.callsignPrefix === null ? null : `${template.callsignPrefix}${next}`,
      createdAt: member.joinDate,
      updatedAt: member.joinDate,
    };
    assignments.push(record);
    return record;
  };

  for (let i = 0; i < count; i++) {
    const joined = new Date(JOIN_FROM + Math.floor(random() * (JOIN_TO - JOIN_FROM))).toISOString();
    const member: MockMember = {
      id: memberId(i),
      displayName: `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`,
      status: FIXTURE_STATUSES[i] ?? drawStatus(random),
      gameLicense: licenseFor(options.seed, i),
      discordId: String(100_000_000_000_000_000n + BigInt(i) * 7919n),
      joinDate: joined,
      createdAt: joined,
      updatedAt: joined,
    };
    members.push(member);
    // Member 0 is the fixture with several departments: LSPD primary, SAFR and DOJ besides.
    const first = i === 0 ? 0 : drawDepartment(random);
    const primary = assign(member, first, true);
    const extra = i === 0 ? [3, 4] : random() < 0.2 ? [drawDepartment(random)] : [];
    for (const d of extra) {
      if (`dept_${DEPARTMENT_TEMPLATES[d]?.key}` !== primary.departmentId) assign(member, d, false);
    }
    if (i < DUTY_MEMBERS && member.status === 'ACTIVE') {
      const sessions = Math.floor(random() * 4);
      for (let s = 0; s < sessions; s++) {
        const start = DUTY_FROM + Math.floor(random() * DUTY_SPAN_MS);
        const minutes = 20 + Math.floor(random() * 220);
        const startedAt = new Date(start).toISOString();
        dutySessions.push({
          id: `duty_${String(dutySessions.length + 1).padStart(6, '0')}`,
          rosterRef: member.id,
          unitRef: primary.departmentId,
          startedAt,
          stoodDownAt: new Date(start + minutes * 60_000).toISOString(),
          onDutySeconds: minutes * 60,
          createdAt: startedAt,
        });
      }
    }
  }

  return {
    community: {
      id: `com_${hexDigest('community', options.seed).slice(0, 12)}`,
      name: 'San Andreas Roleplay',
      plan: 'PROFESSIONAL',
      planActive: true,
    },
    departments,
    ranks,
    members,
    assignments,
    dutySessions,
    auditLogs: [
      {
        id: 'aud_000001',
        action: 'community.settings.update',
        resourceType: 'community',
        resourceId: 'community',
        changes: { name: { from: 'SA Roleplay', to: 'San Andreas Roleplay' } },
        source: 'DASHBOARD',
        actorId: 'usr_owner',
        actorName: 'Community Owner',
        apiKeyId: null,
        createdAt: '2025-04-30T12:00:00.000Z',
      },
    ],
  };
}
