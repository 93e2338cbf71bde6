/**
 * Types of the `roster` resource's public interface (its exports, events and state bags), for other
 * TypeScript resources. Types only, no runtime code: import them with `import type`, so nothing of
 * `roster` is bundled into your resource.
 *
 * @example
 * ```ts
 * import type { Member, RosterExportsGlobal } from '../roster/types';
 *
 * declare const exports: RosterExportsGlobal; // module scope: shadows Cfx's untyped `exports`
 *
 * const member: Member | null = exports.roster.getMember(source);
 * if (exports.roster.hasMinRank(source, 'LSPD', 'Sergeant')) {
 *   // ...
 * }
 * ```
 *
 * @packageDocumentation
 */

// ---------------------------------------------------------------------------------------------
// Roster shapes. The resource may add fields; these are the ones it promises.

/** A rank inside a department. */
export interface Rank {
  id: string;
  name: string;
  /** Seniority; whether smaller or larger is more senior depends on the server's `ranks.order`. */
  position: number;
}

/** One of a member's department assignments. */
export interface Department {
  id: string;
  name: string;
  shortName: string | null;
  /** True for the member's primary department (at most one). */
  primary: boolean;
  callsign: string | null;
  rank: Rank | null;
}

/** A member of the community's roster, as the exports and events hand it out. */
export interface Member {
  id: string;
  /** Display name. */
  name: string;
  /** The roster status, e.g. `ACTIVE`. */
  status: string;
  /** `license:<hex>`; absent from the state bag (see {@link PublicMember}). */
  license: string;
  departments: Department[];
}

/** What `setRank` resolves to. */
export type SetRankResult = { ok: true; member: Member } | { ok: false; reason: string };

/** The second argument of `roster:rankChanged`. */
export interface RankChange {
  department: Department;
  from: Rank | null;
  to: Rank;
  /** Server id of the player who made the change; 0 for the console or a resource. */
  actor: number;
}

/** A framework job and grade (job sync). */
export interface JobGrade {
  job: string;
  grade: number;
}

/** The second argument of `roster:jobChanged`; `job` null when the group was removed (ox_core, ND_Core). */
export interface JobChange {
  job: string | null;
  grade: number | null;
  previous: JobGrade | null;
}

/** A member without the license: what the `roster` state bag holds, since state bags reach clients. */
export type PublicMember = Omit<Member, 'license'>;

// ---------------------------------------------------------------------------------------------
// Training shapes (the learning partner side).

/** One completed course. */
export interface CourseCompletion {
  courseId: string;
  title: string;
  /** ISO 8601 date-time with UTC offset. */
  completedAt: string;
}

/** A player's training record: whether their Discord account is linked, and the courses they completed. */
export interface Training {
  linked: boolean;
  /** Only listed courses; unlisted ones never appear here. */
  completions: CourseCompletion[];
}

/** Result of {@link RosterExports.assignCourse}; it is a tagged result, never a rejection. */
export type AssignCourseResult = { enrolled: true; created: boolean } | { enrolled: false; reason: string };

/**
 * A certificate of an online, linked player that expires soon.
 * Fields may grow: more may be present than listed here.
 */
export interface ExpiringCertificate {
  /** The player's server id. */
  src: number;
  discordId: string;
  courseId?: string;
  title: string;
  /** ISO 8601 date-time. */
  expiresAt: string;
}

/** A badge earned in the learning app. */
export interface TrainingBadge {
  id?: string;
  name: string;
}

/** Experience, level and badges of a linked player. */
export interface TrainingProgress {
  experience: number;
  level: number;
  badges: TrainingBadge[];
}

// ---------------------------------------------------------------------------------------------
// Exports.

/** A server id, as a number or a numeric string. */
export type ServerId = number | string;

/**
 * The exports of `roster`. In JS: `exports.roster.hasMinRank(source, 'LSPD', 'Sergeant')`;
 * in Lua: `exports.roster:hasMinRank(source, 'LSPD', 'Sergeant')` (colon call).
 *
 * Departments are matched by id, name or short name, ranks and courses by id or name/title, all
 * case-insensitively. No export ever throws: bad arguments (wrong type, unknown player, unknown
 * department) give `false`, `null` or `[]`, and so does a resource that is not configured.
 * The synchronous ones answer from memory and are safe in hot paths; the asynchronous ones return
 * a Promise that never rejects.
 */
export interface RosterExports {
  /** The player's member record, or `null` (not on the roster, not loaded yet, bad `src`). Sync. */
  getMember(src: ServerId): Member | null;

  /** `true` if the player is a member whose status is in `gate.requireStatus`; else `false`. Sync. */
  isOnRoster(src: ServerId): boolean;

  /** The player's departments; `[]` when none or unknown. Sync. */
  getDepartments(src: ServerId): Department[];

  /** Whether the player is in `department` (id, name or short name). `false` on bad arguments. Sync. */
  isInDepartment(src: ServerId, department: string): boolean;

  /**
   * The player's rank in `department`, or in their primary department without one; `null` when
   * they have none there or the arguments are bad. Sync.
   */
  getRank(src: ServerId, department?: string): Rank | null;

  /** Whether the player holds exactly `rank` (id or name) in `department`. `false` on bad arguments. Sync. */
  hasRank(src: ServerId, department: string, rank: string): boolean;

  /**
   * Whether the player holds `rank` or a more senior one in `department` (seniority follows
   * `ranks.order`). `false` on bad arguments. Sync.
   */
  hasMinRank(src: ServerId, department: string, rank: string): boolean;

  /**
   * The framework job and grade the roster gives the player's character (job sync); `null` when job
   * sync is off or the roster gives none. Sync.
   */
  getJob(src: ServerId): JobGrade | null;

  /**
   * The member with this `license:…` identifier, cache first; `null` when not on the roster, on a
   * bad argument or when the service cannot answer. Async; never rejects.
   */
  lookupLicense(license: string): Promise<Member | null>;

  /**
   * Fetches the player's record fresh; `roster:playerUpdated` fires if it changed, as for a
   * background refresh. Resolves to `null` when not on the roster or on a bad `src`. Async; never rejects.
   */
  refreshPlayer(src: ServerId): Promise<Member | null>;

  /**
   * Sets `rank` (id or name) in `department` for the online player `target`. `actor` is required:
   * a player's server id applies the rank rules on the roster's current data (only a rank strictly
   * below the actor's own, only for a member strictly below it, only while the actor's status
   * admits them, unless they are allowed `roster.manage`; one change every 3 s and 30 an hour per
   * actor); `0` trusts the calling resource as the console (never pass it from a handler a client
   * can trigger: every player would have the console's authority). An omitted, `nil` or `null` actor is
   * refused with a reason, never taken for the console. Any actor: at most 4 changes of one member
   * in 10 minutes. Async; always resolves, never rejects.
   */
  setRank(target: ServerId, department: string, rank: string, actor: ServerId): Promise<SetRankResult>;

  /** The player's training record, or `null` when unknown or training is off. Sync. */
  getTraining(src: ServerId): Training | null;

  /** Whether the player completed `course` (id or title, case-insensitive). `false` on bad arguments. Sync. */
  hasCompletedCourse(src: ServerId, course: string): boolean;

  /**
   * Whether the player is in `department` and has completed every course that
   * `training.departmentCourses` requires for it. `false` on bad arguments. Sync.
   */
  isQualified(src: ServerId, department: string): boolean;

  /**
   * Enrolls the player in a course. Always resolves, never rejects: `{ enrolled: true, created }`
   * (`created` is `false` when already enrolled) or `{ enrolled: false, reason }`. Async.
   */
  assignCourse(src: ServerId, courseId: string): Promise<AssignCourseResult>;

  /**
   * Certificates of linked players expiring within `days` (default 30); `[]` on bad arguments,
   * when training is off or when the service cannot answer. Async; never rejects.
   */
  getExpiringCertificates(days?: number): Promise<ExpiringCertificate[]>;

  /** Experience, level and badges of a linked player, or `null`. Async; never rejects. */
  getTrainingProgress(src: ServerId): Promise<TrainingProgress | null>;

  /**
   * Queue priority: the power of the first `queue.priority` rule the player (a server id, a
   * connecting player's temporary id too, or a `license:…`) matches, from what is known now; `0`
   * when none matches or nothing is known. Sync.
   */
  getPriority(srcOrLicense: ServerId): number;

  /**
   * The same once the roster has answered (a connecting player: the join gate's own answer), within
   * `gate.timeoutSeconds`. Async; never rejects.
   */
  lookupPriority(srcOrLicense: ServerId): Promise<number>;

  /**
   * Hours on duty in the last `days` (default 7, at most 30), from memory; `null` when unknown (the
   * key lacks `timelogs:read`, not read yet, not on the roster) or `days` is not a positive number. Sync.
   */
  getDutyHours(src: ServerId, days?: number): number | null;
}

/**
 * The shape of Cfx's `exports` as far as `roster` is concerned. Declare it at the top of a module
 * (it shadows the global `exports` there, typed only in that file):
 *
 * @example
 * ```ts
 * import type { RosterExportsGlobal } from '../roster/types';
 * declare const exports: RosterExportsGlobal;
 *
 * const rank = exports.roster.getRank(source, 'LSPD');
 * const member = await exports.roster.lookupLicense('license:0123…');
 * ```
 *
 * Or, without redeclaring `exports`: `const roster = (exports as unknown as RosterExportsGlobal).roster;`
 */
export interface RosterExportsGlobal {
  readonly roster: RosterExports;
}

// ---------------------------------------------------------------------------------------------
// Events, emitted server side with `emit`.

/** Argument of `roster:ready`. */
export interface RosterReadyInfo {
  /** The community's name. */
  community: string;
  /** The roster API key's scopes. */
  scopes: string[];
}

/**
 * Server events of `roster`, by name, with their argument tuples.
 *
 * @example
 * ```ts
 * import type { RosterEventHandler } from '../roster/types';
 * const onUpdated: RosterEventHandler<'roster:playerUpdated'> = (src, member, previous) => {
 *   // ...
 * };
 * on('roster:playerUpdated', onUpdated);
 * ```
 */
export interface RosterEvents {
  /** The key was verified at start. */
  'roster:ready': [info: RosterReadyInfo];
  /** A joined player (final server id) has roster data. */
  'roster:playerLoaded': [src: number, member: Member | null];
  /** A refresh found a change in status, departments or ranks. */
  'roster:playerUpdated': [src: number, member: Member | null, previous: Member | null];
  /** A rank change from the game was confirmed by the service; `actor` 0 = console or a resource. */
  'roster:rankChanged': [target: number, change: RankChange];
  /** The framework took a job change job sync made. */
  'roster:jobChanged': [src: number, change: JobChange];
  /** A player's training record changed; the same value `getTraining` gives. */
  'roster:trainingUpdated': [src: number, training: Training | null];
}

/** The name of a `roster` event. */
export type RosterEventName = keyof RosterEvents;

/** A handler for the `roster` event `K`. */
export type RosterEventHandler<K extends RosterEventName> = (...args: RosterEvents[K]) => void;

// ---------------------------------------------------------------------------------------------
// State bags: `Player(src).state.<key>`, replicated.

/** The keys `roster` sets on a player's state bag, and their values. */
export interface RosterPlayerState {
  /** The member without its license, or `null`; in step with `roster:playerLoaded` / `roster:playerUpdated`. */
  roster: PublicMember | null;
  /** The `getTraining` value; in step with `roster:trainingUpdated`. */
  training: Training | null;
}
