import { hexDigest, seededRandom } from '../mock-http/seeded-random';
import type { CourseRecord, Difficulty, LearningData, OrgFlags } from './records';

const DAY_MS = 86_400_000;

/** 18-digit chat-platform ids; by default users 0–3 are linked to the first four. */
export const DISCORD_IDS = [
  '210000000000000001',
  '210000000000000002',
  '210000000000000003',
  '210000000000000004',
  '210000000000000005',
  '210000000000000006',
  '210000000000000007',
  '210000000000000008',
] as const;

const NAMES = [
  'Alex Mercer',
  'Jordan Reyes',
  'Casey Novak',
  'Riley Brooks',
  'Morgan Hale',
  'Taylor Quinn',
  'Jamie Ortiz',
  'Avery Stone',
  'Drew Collins',
  'Parker Lane',
  'Sam Whitfield',
  'Quinn Harper',
];

type CourseSeed = [
  string,
  string,
  Difficulty,
  number,
  { listed?: boolean; published?: boolean; public?: boolean; self?: boolean },
];

const COURSES: CourseSeed[] = [
  [
    'Police Academy',
    'Patrol procedure, use of force and radio discipline.',
    'beginner',
    240,
    { public: true },
  ],
  ['Fire Academy', 'Fire behaviour, hose lines and scene safety.', 'beginner', 180, { public: true }],
  ['EMS First Responder', 'Triage, CPR and patient handover.', 'intermediate', 120, { self: true }],
  ['Advanced Driving', 'Pursuit driving and vehicle dynamics.', 'advanced', 90, { listed: false }],
  ['Legacy Course', 'The old onboarding course, kept for records.', 'beginner', 60, { published: false }],
];

/** A uuid (version 4 layout) derived from the parts. */
export function seededUuid(...parts: (string | number)[]): string {
  const h = hexDigest('uuid', ...parts);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface SeedOptions {
  seed: number;
  users: number;
  now: number;
  flags: OrgFlags;
}

/** The deterministic organisation: courses, users, history of users 0–4 fixed, the rest seeded. */
export function seedOrganisation(options: SeedOptions): LearningData {
  const { seed, now } = options;
  const at = (days: number) => new Date(now + days * DAY_MS).toISOString();
  const courses: CourseRecord[] = COURSES.map(([title, description, difficulty, est, o]) => ({
    id: seededUuid(seed, 'course', title),
    title,
    description,
    allow_self_enroll: o.self ?? false,
    difficulty,
    est_minutes: est,
    listed: o.listed ?? true,
    published: o.published ?? true,
    public: o.public ?? false,
  }));
  const course = (title: string) => courses.find((c) => c.title === title)!.id;
  const users = Array.from({ length: Math.max(6, options.users) }, (_, i) => ({
    user_sub: `sub_${hexDigest('user', seed, i).slice(0, 10)}`,
    name: NAMES[i % NAMES.length] + (i >= NAMES.length ? ` ${Math.floor(i / NAMES.length) + 1}` : ''),
    email: `user${i + 1}@lsrp-academy.test`,
  }));
  const sub = (i: number) => users[i]!.user_sub;
  const data: LearningData = {
    org: {
      tenant_id: `ten_${hexDigest('tenant', seed).slice(0, 12)}`,
      alias: 'lsrp-academy',
      previousAliases: ['lsrp-training'],
      name: 'LSRP Academy',
      edition: 'professional',
      flags: { ...options.flags },
      publicCatalog: true,
    },
    courses,
    users,
    enrollments: [],
    completions: [],
    certificates: [],
    links: new Map(),
    linkRequests: new Map(),
    notifications: [],
    bonusXp: new Map(),
  };
  const complete = (i: number, title: string, daysAgo: number) => {
    const when = at(-daysAgo);
    data.completions.push({ user_sub: sub(i), course_id: course(title), completed_at: when });
    data.enrollments.push(enrollment(seed, sub(i), course(title), 'completed', at(-daysAgo - 7), when));
  };
  const certify = (i: number, title: string, expiresInDays: number, revoked = false) => {
    data.certificates.push({
      id: `cert_${hexDigest('cert', seed, i, title).slice(0, 12)}`,
      user_sub: sub(i),
      course_id: course(title),
      issued_at: at(expiresInDays - 365),
      expires_at: at(expiresInDays),
      revoked,
    });
  };
  complete(0, 'Police Academy', 300);
  complete(0, 'Advanced Driving', 200);
  certify(0, 'Police Academy', 10);
  certify(0, 'Advanced Driving', 60);
  complete(1, 'Fire Academy', 100);
  certify(1, 'Fire Academy', 25);
  certify(1, 'Police Academy', 5, true);
  data.enrollments.push(enrollment(seed, sub(1), course('EMS First Responder'), 'in_progress', at(-3), null));
  data.enrollments.push(enrollment(seed, sub(2), course('Police Academy'), 'assigned', at(-1), null));
  complete(3, 'Police Academy', 400);
  certify(3, 'Police Academy', -5);
  complete(4, 'Fire Academy', 50);
  certify(4, 'Fire Academy', 5);

  const random = seededRandom(seed * 7919 + 17);
  const listed = courses.filter((c) => c.published && c.listed).map((c) => c.title);
  for (let i = 5; i < users.length; i++) {
    for (const title of listed) if (random() < 0.4) complete(i, title, 1 + Math.floor(random() * 300));
  }
  for (const user of users) data.bonusXp.set(user.user_sub, Math.floor(random() * 100));
  data.completions.sort(byCompletion);
  return data;
}

export function enrollment(
  seed: number,
  user_sub: string,
  course_id: string,
  status: 'assigned' | 'in_progress' | 'completed',
  enrolled_at: string,
  completed_at: string | null,
) {
  return {
    id: `enr_${hexDigest('enrollment', seed, user_sub, course_id).slice(0, 16)}`,
    course_id,
    user_sub,
    status,
    enrolled_at,
    completed_at,
  };
}

export function byCompletion(
  a: { completed_at: string; user_sub: string; course_id: string },
  b: { completed_at: string; user_sub: string; course_id: string },
): number {
  return (
    a.completed_at.localeCompare(b.completed_at) ||
    a.user_sub.localeCompare(b.user_sub) ||
    a.course_id.localeCompare(b.course_id)
  );
}
