import { LRUCache } from 'lru-cache';
import { errorMessage } from '../../platform/error-message';
import type { Clock, Logger } from '../../platform/ports';
import { assumedLayout, type DiscoveredLayout } from './api/api-layout';
import type { LearningApi } from './api/learning-api';
import { discoverLayout } from './api/openapi-discovery';
import type { LearningKeyIdentity, LinkedCompletion, LinkStatus } from './api/records';
import { CourseIndex } from './course-index';
import { LinkCodes } from './link-codes';
import type { Training } from './training-model';
import { hasCompleted, trainingOf } from './training-of';

/** Where changes go: the FiveM side turns them into the event and the state bag. */
export interface TrainingEvents {
  trainingUpdated(src: string, training: Training): void;
}

export interface TrainingServiceDeps {
  api: LearningApi;
  clock: Clock;
  logger: Logger;
  events: TrainingEvents;
}

export interface OnlinePlayer {
  /** The numeric Discord id, or null when the player has no `discord:` identifier. */
  discordId: string | null;
  name: string;
  /** The last value announced, as JSON, so only changes are announced. */
  announced?: string;
}

/** A link answer is reused this long (a join reuses what its gate check just learned). */
const LINK_FRESH_MS = 60_000;
const MAX_LINKS = 20_000;

/**
 * The training side's memory: courses, completions of every linked user (one list request for
 * everyone, refreshed in the background), link status per Discord id, and the players online.
 * Plain Node: no FiveM globals.
 */
/** Link re-checks of players the completion list does not show, per background refresh. */
const LINK_RECHECKS_PER_REFRESH = 10;

export class TrainingService {
  layout: DiscoveredLayout = assumedLayout('not read yet');
  identity: LearningKeyIdentity | undefined;
  /** Why the key could not be verified, when it could not. */
  identityProblem: string | undefined;
  courses: CourseIndex | undefined;
  completionsAt: number | undefined;
  private completions: Map<string, LinkedCompletion[]> | undefined;
  private completionsLoad: Promise<void> | undefined;
  private coursesLoad: Promise<void> | undefined;
  private readonly links = new LRUCache<string, LinkStatus & { at: number }>({ max: MAX_LINKS });
  readonly players = new Map<string, OnlinePlayer>();

  /** Pending link codes, one request per code lifetime per user. */
  readonly linkCodes: LinkCodes;

  constructor(private readonly deps: TrainingServiceDeps) {
    this.linkCodes = new LinkCodes(deps.api, deps.clock);
  }

  get api(): LearningApi {
    return this.deps.api;
  }

  /** Reads the OpenAPI document for what the partner document leaves out, then verifies the key. */
  async loadLayout(): Promise<void> {
    try {
      this.layout = discoverLayout(await this.deps.api.openapi());
    } catch (error) {
      this.layout = assumedLayout(`could not read it: ${errorMessage(error)}`);
    }
    this.deps.api.useLayout(this.layout.layout);
  }

  async verifyKey(): Promise<LearningKeyIdentity | undefined> {
    try {
      this.identity = await this.deps.api.identity();
      this.identityProblem = undefined;
    } catch (error) {
      this.identityProblem = errorMessage(error);
    }
    return this.identity;
  }

  /** Loads the published courses (one request at a time; callers share it). */
  loadCourses(lane: 'join' | 'refresh' | 'background' = 'background'): Promise<void> {
    this.coursesLoad ??= this.deps.api
      .courses({ lane })
      .then((courses) => {
        this.courses = new CourseIndex(courses);
        this.announceAll();
      })
      .finally(() => {
        this.coursesLoad = undefined;
      });
    return this.coursesLoad;
  }

  /** Loads every linked user's completions (one list, pages followed; callers share it). */
  loadCompletions(lane: 'join' | 'refresh' | 'background' = 'background'): Promise<void> {
    this.completionsLoad ??= this.deps.api
      .linkedCompletions({ lane, ...(lane === 'join' ? { retries: 0 } : {}) })
      .then((list) => {
        const byDiscord = new Map<string, LinkedCompletion[]>();
        for (const completion of list) {
          const own = byDiscord.get(completion.discordId) ?? [];
          own.push(completion);
          byDiscord.set(completion.discordId, own);
          // Only linked users appear in this list, so it also tells who is linked.
          this.rememberLink(completion.discordId, { linked: true, userSub: completion.userSub }, false);
        }
        this.completions = byDiscord;
        this.completionsAt = this.deps.clock.now();
        this.announceAll();
      })
      .finally(() => {
        this.completionsLoad = undefined;
      });
    return this.completionsLoad;
  }

  /** The completions of a linked Discord user; `undefined` while none were ever loaded. */
  completionsOf(discordId: string): LinkedCompletion[] | undefined {
    return this.completions ? (this.completions.get(discordId) ?? []) : undefined;
  }

  /** True when some completion list was loaded. */
  get hasCompletions(): boolean {
    return this.completions !== undefined;
  }

  /** Asks the service whether a Discord user is linked; remembers the answer. */
  async lookupLink(discordId: string, lane: 'join' | 'refresh' | 'background'): Promise<LinkStatus> {
    const status = await this.deps.api.link(discordId, { lane, ...(lane === 'join' ? { retries: 0 } : {}) });
    this.rememberLink(discordId, status);
    return status;
  }

  /** The remembered link of a Discord user: fresh only, or however old with `stale`. */
  knownLink(discordId: string, stale = false): LinkStatus | undefined {
    const known = this.links.get(discordId);
    if (!known) return undefined;
    return stale || this.deps.clock.now() - known.at < LINK_FRESH_MS ? known : undefined;
  }

  /** Remembers a link answer and announces the players it concerns (unless the caller announces all). */
  rememberLink(discordId: string, status: LinkStatus, announce = true): void {
    const previous = this.links.get(discordId);
    const userSub = status.userSub ?? (status.linked ? previous?.userSub : undefined);
    this.links.set(discordId, { linked: status.linked, userSub, at: this.deps.clock.now() });
    if (status.linked) this.linkCodes.forget(discordId);
    if (!announce) return;
    if (status.linked && previous?.linked !== true && this.completions?.has(discordId) !== true) {
      // A new link may bring completions made before it: read the list again (it announces all).
      this.loadCompletions('refresh').catch((error: unknown) =>
        this.deps.logger.debug(`training: completions after a new link not read: ${errorMessage(error)}`),
      );
    }
    for (const [src, player] of this.players) if (player.discordId === discordId) this.announce(src);
  }

  /** A joined player: their link (reused from the gate when fresh) and training, announced once known. */
  async addPlayer(src: string, discordId: string | null, name: string): Promise<void> {
    this.players.set(src, { discordId, name });
    if (discordId !== null && !this.knownLink(discordId)) {
      try {
        await this.lookupLink(discordId, 'refresh');
      } catch (error) {
        this.deps.logger.debug(`training: link of player ${src} unknown: ${errorMessage(error)}`);
      }
    }
    this.announce(src);
  }

  dropPlayer(src: string): void {
    this.players.delete(src);
  }

  /** A player's training, or `null` while unknown (not online, link or lists not loaded). */
  training(src: string): Training | null {
    const player = this.players.get(src);
    if (!player) return null;
    if (player.discordId === null) return { linked: false, completions: [] };
    const link = this.links.get(player.discordId);
    if (!link) return null;
    if (!link.linked) return { linked: false, completions: [] };
    const completions = this.completionsOf(player.discordId);
    if (completions === undefined || this.courses === undefined) return null;
    return trainingOf(true, completions, this.courses);
  }

  hasCompletedCourse(src: string, course: string): boolean {
    const player = this.players.get(src);
    if (!player?.discordId || this.links.get(player.discordId)?.linked !== true) return false;
    const completions = this.completionsOf(player.discordId) ?? [];
    return hasCompleted(course, completions, this.courses ?? new CourseIndex([]));
  }

  /** Background refresh: the completion list, then the link of a few online players the list does not show. */
  async refreshOnline(): Promise<void> {
    try {
      await this.loadCompletions('background');
    } catch (error) {
      this.deps.logger.warn(`training: could not refresh completions: ${errorMessage(error)}`);
      return;
    }
    // Players the list does not show may have linked meanwhile; ask for a few per pass, those
    // asked longest ago first, so a full server costs a handful of requests, not one per player.
    const unseen = [...this.players]
      .filter(
        ([, player]) => player.discordId !== null && !(this.completions?.get(player.discordId)?.length ?? 0),
      )
      .sort(
        ([, a], [, b]) => (this.links.get(a.discordId!)?.at ?? 0) - (this.links.get(b.discordId!)?.at ?? 0),
      )
      .slice(0, LINK_RECHECKS_PER_REFRESH);
    for (const [src, player] of unseen) {
      if (player.discordId === null || !this.players.has(src)) continue;
      try {
        await this.lookupLink(player.discordId, 'background');
      } catch (error) {
        this.deps.logger.debug(`training: link of player ${src} not refreshed: ${errorMessage(error)}`);
        return;
      }
    }
  }

  /** Announces a player's training when it differs from what was last announced. */
  announce(src: string): void {
    const player = this.players.get(src);
    const training = this.training(src);
    if (!player || training === null) return;
    const json = JSON.stringify(training);
    if (json === player.announced) return;
    player.announced = json;
    this.deps.events.trainingUpdated(src, training);
  }

  private announceAll(): void {
    for (const src of this.players.keys()) this.announce(src);
  }
}
