import { flag, isObject, type JsonObject, listIn, numberOf, text } from './json-fields';

/** A published course from `GET /courses`. */
export interface CourseRecord {
  id: string;
  title: string;
  /** False for unlisted courses: assignable, but never shown to players. */
  listed: boolean;
}

/** One completion of a linked user, from `GET /discord/completions`. */
export interface LinkedCompletion {
  discordId: string;
  userSub: string | undefined;
  courseId: string;
  /** The title the record carries, if any (the course list is the authority). */
  title: string | undefined;
  completedAt: string;
}

export interface LinkStatus {
  linked: boolean;
  userSub: string | undefined;
}

export interface LearningKeyIdentity {
  tenantId: string | undefined;
  org: { alias: string | undefined; name: string | undefined; edition: string | undefined };
  scopes: string[];
  flags: Record<string, boolean>;
}

/** The reply to a link request: a code and where to confirm it, or "already linked". */
export type LinkRequestReply =
  | { alreadyLinked: true; userSub: string | undefined }
  | { alreadyLinked: false; code: string; confirmUrl: string | undefined; expiresAt: string | undefined };

export interface Certificate {
  id: string | null;
  discordId: string | null;
  userSub: string | null;
  courseId: string | null;
  title: string | null;
  issuedAt: string | null;
  expiresAt: string | null;
}

export interface Badge {
  id: string | null;
  name: string;
}

export interface Progress {
  experience: number | null;
  level: number | null;
  badges: Badge[];
}

export function readCourses(body: unknown): CourseRecord[] {
  const courses: CourseRecord[] = [];
  for (const item of listIn(body, 'courses', 'items', 'results') ?? []) {
    if (!isObject(item)) continue;
    const id = text(item, 'id', 'course_id');
    const title = text(item, 'title', 'name');
    if (id === undefined || title === undefined) continue;
    courses.push({ id, title, listed: flag(item, 'listed') ?? true });
  }
  return courses;
}

export function readLinkedCompletions(body: unknown): LinkedCompletion[] {
  const completions: LinkedCompletion[] = [];
  for (const item of listIn(body, 'completions', 'items', 'results') ?? []) {
    if (!isObject(item)) continue;
    const discordId = text(item, 'discord_id', 'discordId');
    const courseId = text(item, 'course_id', 'courseId');
    const completedAt = text(item, 'completed_at', 'completedAt');
    if (discordId === undefined || courseId === undefined || completedAt === undefined) continue;
    completions.push({
      discordId,
      userSub: text(item, 'user_sub', 'userSub'),
      courseId,
      title: text(item, 'title', 'course_title'),
      completedAt,
    });
  }
  return completions;
}

export function readLinkStatus(body: unknown): LinkStatus | undefined {
  if (!isObject(body)) return undefined;
  const linked = flag(body, 'linked');
  if (linked === undefined) return undefined;
  return { linked, userSub: linked ? text(body, 'user_sub', 'userSub') : undefined };
}

export function readIdentity(body: unknown): LearningKeyIdentity | undefined {
  if (!isObject(body)) return undefined;
  const org: JsonObject = isObject(body.org) ? body.org : {};
  const flags: Record<string, boolean> = {};
  if (isObject(body.flags)) {
    for (const [name, value] of Object.entries(body.flags))
      if (typeof value === 'boolean') flags[name] = value;
  }
  const scopes = Array.isArray(body.scopes)
    ? body.scopes.filter((s): s is string => typeof s === 'string')
    : [];
  return {
    tenantId: text(body, 'tenant_id'),
    org: {
      alias: text(org, 'alias') ?? (typeof body.org === 'string' ? body.org : undefined),
      name: text(org, 'name'),
      edition: text(org, 'edition'),
    },
    scopes,
    flags,
  };
}

/** Field names of the link-request reply, as the OpenAPI document gives them (or the defaults). */
export interface LinkReplyFields {
  code: string;
  confirmUrl: string;
  expiresAt: string;
}

export function readLinkRequestReply(body: unknown, fields: LinkReplyFields): LinkRequestReply | undefined {
  if (!isObject(body)) return undefined;
  if (flag(body, 'already_linked') === true) return { alreadyLinked: true, userSub: text(body, 'user_sub') };
  const code = text(body, fields.code, 'code', 'link_code', 'short_code');
  if (code === undefined) return undefined;
  return {
    alreadyLinked: false,
    code,
    confirmUrl: text(body, fields.confirmUrl, 'confirm_url', 'confirmation_url', 'url', 'link_url'),
    expiresAt: text(body, fields.expiresAt, 'expires_at', 'expiresAt'),
  };
}

export function readCertificates(body: unknown): Certificate[] {
  const certificates: Certificate[] = [];
  for (const item of listIn(body, 'certificates', 'items', 'results') ?? []) {
    if (!isObject(item)) continue;
    certificates.push({
      id: text(item, 'id', 'certificate_id') ?? null,
      discordId: text(item, 'discord_id') ?? null,
      userSub: text(item, 'user_sub') ?? null,
      courseId: text(item, 'course_id') ?? null,
      title: text(item, 'title', 'course_title') ?? null,
      issuedAt: text(item, 'issued_at') ?? null,
      expiresAt: text(item, 'expires_at') ?? null,
    });
  }
  return certificates;
}

/** Field names of the experience/level/badge record, as found or assumed. */
export interface ProgressFields {
  experience: string;
  level: string;
  badges: string;
}

export function readProgress(body: unknown, fields: ProgressFields): Progress | undefined {
  if (!isObject(body)) return undefined;
  const badges: Badge[] = [];
  for (const item of listIn(body, fields.badges, 'badges') ?? []) {
    if (typeof item === 'string') badges.push({ id: item, name: item });
    else if (isObject(item)) {
      const name = text(item, 'name', 'title', 'id');
      if (name !== undefined) badges.push({ id: text(item, 'id', 'key') ?? null, name });
    }
  }
  return {
    experience: numberOf(body, fields.experience, 'xp', 'experience', 'experience_points', 'points') ?? null,
    level: numberOf(body, fields.level, 'level') ?? null,
    badges,
  };
}

/** The public catalog's aliases: `org` is the current one, `requested_org` the one asked for. */
export function readCatalogAliases(body: unknown): { org: string; requestedOrg: string } | undefined {
  if (!isObject(body)) return undefined;
  const org = text(body, 'org');
  const requestedOrg = text(body, 'requested_org');
  return org !== undefined && requestedOrg !== undefined ? { org, requestedOrg } : undefined;
}
