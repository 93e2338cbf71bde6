import { hexDigest } from '../mock-http/seeded-random';
import { type Gamification, gamificationOf } from './gamification';
import type {
  CertificateRecord,
  CourseRecord,
  EnrollmentRecord,
  LearningData,
  LinkRequestRecord,
  UserRecord,
} from './records';
import { byCompletion, enrollment } from './seed-organisation';

const LINK_CODE_TTL_MS = 10 * 60_000;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export type ConfirmResult =
  | { ok: true; discord_id: string }
  | { ok: false; reason: 'unknown_code' | 'expired' | 'unknown_user' };

/** The organisation's data with the lookups handlers need and the mutations tests use. */
export class LearningStore {
  private codeCounter = 0;

  constructor(
    readonly data: LearningData,
    private readonly seed: number,
    private readonly now: () => number,
  ) {}

  get org() {
    return this.data.org;
  }
  get users(): readonly UserRecord[] {
    return this.data.users;
  }
  get courses(): readonly CourseRecord[] {
    return this.data.courses;
  }
  get completions() {
    return this.data.completions;
  }
  get enrollments() {
    return this.data.enrollments;
  }
  get certificates() {
    return this.data.certificates;
  }
  get links() {
    return this.data.links;
  }
  get linkRequests() {
    return this.data.linkRequests;
  }
  get notifications() {
    return this.data.notifications;
  }

  user(sub: string): UserRecord | undefined {
    return this.data.users.find((u) => u.user_sub === sub);
  }

  /** A course by id or title (case-insensitive), published or not. */
  course(idOrTitle: string): CourseRecord | undefined {
    const lower = idOrTitle.toLowerCase();
    return this.data.courses.find((c) => c.id === idOrTitle || c.title.toLowerCase() === lower);
  }

  private requireCourse(idOrTitle: string): CourseRecord {
    const course = this.course(idOrTitle);
    if (!course) throw new Error(`mock learning: no course ${idOrTitle}`);
    return course;
  }

  /** The user a discord id is linked to. */
  linkedUser(discordId: string): string | undefined {
    return this.data.links.get(discordId);
  }

  discordIdOf(sub: string): string | undefined {
    for (const [discordId, userSub] of this.data.links) if (userSub === sub) return discordId;
    return undefined;
  }

  /** Binds a discord id to a user; a user has one discord id, so an older link of the user goes. */
  link(discordId: string, sub: string): void {
    const previous = this.discordIdOf(sub);
    if (previous !== undefined) this.data.links.delete(previous);
    this.data.links.set(discordId, sub);
  }

  unlink(discordId: string): boolean {
    return this.data.links.delete(discordId);
  }

  /** A new pending request for the discord id (replacing a pending one). */
  requestLink(discordId: string, username: string): LinkRequestRecord {
    for (const [code, request] of this.data.linkRequests) {
      if (request.discord_id === discordId || request.expiresAt <= this.now())
        this.data.linkRequests.delete(code);
    }
    let code = '';
    do {
      const digest = hexDigest('link-code', this.seed, discordId, this.codeCounter++);
      code = Array.from({ length: 6 }, (_, i) => {
        const byte = Number.parseInt(digest.slice(i * 2, i * 2 + 2), 16);
        return CODE_ALPHABET[byte % CODE_ALPHABET.length];
      }).join('');
    } while (this.data.linkRequests.has(code));
    const request = {
      code,
      discord_id: discordId,
      discord_username: username,
      expiresAt: this.now() + LINK_CODE_TTL_MS,
    };
    this.data.linkRequests.set(code, request);
    return request;
  }

  /** The member confirms the code in the learning app, signed in as `sub`. */
  confirmLink(code: string, sub: string): ConfirmResult {
    const request = this.data.linkRequests.get(code.toUpperCase());
    if (!request) return { ok: false, reason: 'unknown_code' };
    if (request.expiresAt <= this.now()) {
      this.data.linkRequests.delete(request.code);
      return { ok: false, reason: 'expired' };
    }
    if (!this.user(sub)) return { ok: false, reason: 'unknown_user' };
    this.data.linkRequests.delete(request.code);
    this.link(request.discord_id, sub);
    return { ok: true, discord_id: request.discord_id };
  }

  /** Enrolls the user; `created` false when already enrolled in the course. */
  enroll(sub: string, courseId: string): { enrollment: EnrollmentRecord; created: boolean } {
    const existing = this.data.enrollments.find((e) => e.user_sub === sub && e.course_id === courseId);
    if (existing) return { enrollment: existing, created: false };
    const stamp = new Date(this.now()).toISOString();
    const record = enrollment(this.seed, sub, courseId, 'assigned', stamp, null);
    this.data.enrollments.push(record);
    this.data.notifications.push({ kind: 'assigned', user_sub: sub, course_id: courseId, at: stamp });
    return { enrollment: record, created: true };
  }

  addUser(options: { name?: string } = {}): UserRecord {
    const i = this.data.users.length;
    const user = {
      user_sub: `sub_${hexDigest('user', this.seed, i).slice(0, 10)}`,
      name: options.name ?? `New Member ${i + 1}`,
      email: `user${i + 1}@lsrp-academy.test`,
    };
    this.data.users.push(user);
    return user;
  }

  /** Records a completion (and marks or creates the enrollment completed). */
  complete(sub: string, courseIdOrTitle: string, at: number = this.now()): void {
    const course = this.requireCourse(courseIdOrTitle);
    const completed_at = new Date(at).toISOString();
    this.data.completions.push({ user_sub: sub, course_id: course.id, completed_at });
    this.data.completions.sort(byCompletion);
    const { enrollment: record } = this.enroll(sub, course.id);
    record.status = 'completed';
    record.completed_at = completed_at;
  }

  addCertificate(spec: {
    user_sub: string;
    course: string;
    issuedAt?: number;
    expiresAt: number;
    revoked?: boolean;
  }): CertificateRecord {
    const course = this.requireCourse(spec.course);
    const certificate = {
      id: `cert_${hexDigest('cert', this.seed, spec.user_sub, course.id, this.data.certificates.length).slice(0, 12)}`,
      user_sub: spec.user_sub,
      course_id: course.id,
      issued_at: new Date(spec.issuedAt ?? this.now()).toISOString(),
      expires_at: new Date(spec.expiresAt).toISOString(),
      revoked: spec.revoked ?? false,
    };
    this.data.certificates.push(certificate);
    return certificate;
  }

  setPublished(course: string, published: boolean): void {
    this.requireCourse(course).published = published;
  }

  setListed(course: string, listed: boolean): void {
    this.requireCourse(course).listed = listed;
  }

  /** The current alias becomes a previous one that keeps answering. */
  renameOrg(alias: string): void {
    const org = this.data.org;
    if (!org.previousAliases.includes(org.alias)) org.previousAliases.push(org.alias);
    org.previousAliases = org.previousAliases.filter((a) => a !== alias);
    org.alias = alias;
  }

  gamificationOf(sub: string): Gamification {
    return gamificationOf(this, sub);
  }
}
