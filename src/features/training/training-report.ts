import type { Config } from '../../kernel/config';
import type { LearningKeyIdentity } from './api/records';
import { unmatchedDepartmentLine } from './department-requirements';
import type { TrainingService } from './training-service';

export interface ReportFacts {
  service: TrainingService;
  config: Config;
  baseUrl: string;
  previousAlias: string | undefined;
  now: number;
  /** `training.departmentCourses` keys matching no roster department; undefined before departments load. */
  unmatchedDepartments?: readonly string[] | undefined;
}

const onOff = (flags: Record<string, boolean>) =>
  Object.entries(flags)
    .map(([name, on]) => `${name} ${on ? 'on' : 'off'}`)
    .join(', ') || 'none reported';

function organisationLine(identity: LearningKeyIdentity, previous: string | undefined): string {
  const { alias, name, edition } = identity.org;
  const renamed = previous ? `, renamed from ${previous}` : '';
  return `organisation: ${name ?? alias ?? 'unknown'} (alias ${alias ?? 'unknown'}${renamed})${edition ? `, edition ${edition}` : ''}`;
}

/** `roster training`: the key's organisation, scopes, flags and the players online. */
export function consoleLines(facts: ReportFacts): string[] {
  const { service } = facts;
  const lines = [`training: on, learning service ${facts.baseUrl}`];
  const identity = service.identity;
  if (identity) {
    lines.push(organisationLine(identity, facts.previousAlias));
    lines.push(`scopes: ${identity.scopes.join(', ') || 'none'}`);
    lines.push(`flags: ${onOff(identity.flags)}`);
  } else {
    lines.push(`the key is not verified: ${service.identityProblem ?? 'not checked yet'}`);
  }
  let linked = 0;
  let noDiscord = 0;
  for (const player of service.players.values()) {
    if (player.discordId === null) noDiscord += 1;
    else if (service.knownLink(player.discordId, true)?.linked) linked += 1;
  }
  const without = noDiscord > 0 ? ` (${noDiscord} without a Discord identifier)` : '';
  lines.push(`linked players online: ${linked} of ${service.players.size}${without}`);
  const courses = service.courses;
  if (courses) {
    const unlisted = courses.courses.filter((c) => !c.listed).length;
    lines.push(`courses: ${courses.size} published${unlisted > 0 ? ` (${unlisted} unlisted)` : ''}`);
  }
  if (service.completionsAt !== undefined) {
    lines.push(`completions refreshed ${Math.round((facts.now - service.completionsAt) / 1000)}s ago`);
  }
  const limiter = service.api.limiterState();
  lines.push(`requests: ${limiter.remainingThisMinute} of ${limiter.perMinute} left this minute`);
  return lines;
}

/** `roster doctor`: what the key can do, what the resource found in the OpenAPI document and what it assumed. */
export function doctorLines(facts: ReportFacts): string[] {
  const { service, config } = facts;
  const lines: string[] = [];
  const identity = service.identity;
  if (!identity) {
    lines.push(`✗ training: the key could not be verified: ${service.identityProblem ?? 'not checked yet'}`);
  } else {
    lines.push(`✓ training: key accepted; ${organisationLine(identity, facts.previousAlias)}`);
    const scopes = new Set(identity.scopes);
    const canRead = scopes.has('read') || scopes.has('enroll:write');
    lines.push(
      canRead
        ? '✓ training: the key can read courses and completions'
        : '✗ training: the key lacks the `read` scope: nothing can be read. Create a key with `read` (or `enroll:write`).',
    );
    if (!scopes.has('enroll:write'))
      lines.push('! training: the key lacks `enroll:write`: assignCourse answers { enrolled: false }.');
    if (identity.flags.discord !== true)
      lines.push(
        "✗ training: the organisation's `discord` flag is off: links, completions and the gate's course check cannot work. Turn it on in the learning service.",
      );
    if (identity.flags.gamification !== true)
      lines.push('! training: the `gamification` flag is off: getTrainingProgress answers null.');
    if (identity.flags.api_access === false)
      lines.push("✗ training: the organisation's `api_access` flag is off: the partner API refuses the key.");
  }
  const layout = service.layout;
  lines.push(
    layout.problem
      ? `training: OpenAPI document (/api/openapi.json) not used (${layout.problem}); using defaults`
      : 'training: OpenAPI document (/api/openapi.json) read',
  );
  for (const note of layout.notes) lines.push(`training:   ${note.part}: ${note.value} (${note.source})`);
  const courses = service.courses;
  const wanted = [
    ...config.gate.requireCourses.map((c) => ['gate.requireCourses', c] as const),
    ...Object.entries(config.training.departmentCourses).flatMap(([department, list]) =>
      list.map((c) => [`training.departmentCourses.${department}`, c] as const),
    ),
  ];
  if (Object.keys(config.training.departmentCourses).length > 0) {
    const unmatched = facts.unmatchedDepartments;
    if (unmatched === undefined)
      lines.push('training: training.departmentCourses: not checked (departments not loaded)');
    else if (unmatched.length === 0)
      lines.push('✓ training: every training.departmentCourses key is a roster department');
    else for (const key of unmatched) lines.push(`✗ ${unmatchedDepartmentLine(key)}`);
  }
  for (const [where, key] of wanted) {
    const course = courses?.find(key);
    if (!courses) lines.push(`training: ${where} "${key}": not checked (courses not loaded)`);
    else if (!course)
      lines.push(`✗ training: ${where} "${key}" is not a published course: nobody can complete it.`);
    else
      lines.push(
        `✓ training: ${where} "${key}" is ${course.title}${course.listed ? '' : ' (unlisted: never named to players)'}`,
      );
  }
  return lines;
}
