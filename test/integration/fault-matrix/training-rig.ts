import { rmSync } from 'node:fs';
import { type Decision, FxServer, type ScriptResource } from '../../../dev/emulator';
import { DISCORD_IDS, type MockLearning, startMockLearning } from '../../../dev/mock-learning/server';
import type { MockMember } from '../../../dev/mock-roster/records';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { expectNoUnhandledRejections, resourceFolder } from '../harness';
import { stalledMs } from '../loop-stalls';
import { keyLeaks } from './cells';
import type { Timed } from './rig';
import { WireLog } from './wire';

/** The course every joining player must have completed. */
export const REQUIRED_COURSE = 'Police Academy';
/** The training key the rows use (`enroll:write`, which includes `read`). */
const KEY_NAME = 'enroll';

/**
 * Who is who on the learning side. Users 0 and 3 have Police Academy, user 1 only Fire Academy;
 * user 5 is linked here and given Police Academy. The unlinked id is linked to nobody.
 */
export const PEOPLE = {
  onlineA: { discordId: DISCORD_IDS[0]!, user: 0 },
  onlineB: { discordId: DISCORD_IDS[3]!, user: 3 },
  trained: { discordId: DISCORD_IDS[4]!, user: 5 },
  untrained: { discordId: DISCORD_IDS[1]!, user: 1 },
  unlinked: { discordId: '300000000000000042', user: null },
} as const;
export type Person = keyof typeof PEOPLE;

/** One learning row's world: a healthy roster mock, the learning mock, the emulator, the resource folder. */
export class TrainingRig {
  /** `[event, ...args]` of every roster event another resource received, as JSON. */
  readonly events: string[] = [];
  /** The training key (and the roster key, which must not show either). */
  readonly trainingKey: string;
  readonly rosterKey: string;
  private readonly members: MockMember[];

  /** What the resource's client wrote to the learning service and had answered, as it happened. */
  readonly wire: WireLog;

  private constructor(
    readonly roster: MockRoster,
    readonly learning: MockLearning,
    readonly server: FxServer,
    readonly folder: string,
    readonly caller: ScriptResource,
  ) {
    this.wire = new WireLog((origin) => origin === learning.url);
    this.trainingKey = learning.keys[KEY_NAME]!;
    this.rosterKey = roster.keys.full!;
    this.members = roster.data.members.filter((m) => m.status === 'ACTIVE');
    for (const event of [
      'roster:ready',
      'roster:playerLoaded',
      'roster:playerUpdated',
      'roster:trainingUpdated',
    ]) {
      caller.on(event, (...args: unknown[]) => this.events.push(JSON.stringify([event, ...args])));
    }
  }

  static async start(config: Record<string, unknown>): Promise<TrainingRig> {
    const roster = await startMockRoster({ port: 0, members: 120, seed: 7 });
    const links = Object.values(PEOPLE).flatMap(({ discordId, user }) =>
      user === null ? [] : [{ discordId, user }],
    );
    const learning = await startMockLearning({ port: 0, links });
    const trainedSub = learning.data.users[PEOPLE.trained.user]!.user_sub;
    const course = learning.data.course(REQUIRED_COURSE)!;
    if (!learning.data.completions.some((c) => c.user_sub === trainedSub && c.course_id === course.id))
      learning.data.complete(trainedSub, REQUIRED_COURSE);
    const folder = resourceFolder({
      ...config,
      training: {
        ...(config.training as Record<string, unknown>),
        enabled: true,
        baseUrl: learning.url,
      },
    });
    const server = new FxServer({
      convars: {
        roster_api_key: roster.keys.full!,
        roster_base_url: roster.url,
        roster_training_api_key: learning.keys[KEY_NAME]!,
      },
      convarPermissions: [
        ['roster', 'roster_api_key'],
        ['roster', 'roster_training_api_key'],
      ],
    });
    await server.start();
    server.startResource('roster', folder);
    return new TrainingRig(roster, learning, server, folder, server.createScriptResource('caller'));
  }

  /** The roster resource's own log, one line each. */
  rosterLog(): string[] {
    return this.server.log.of('roster');
  }

  /** An ACTIVE roster member's license not used yet in this row. */
  freshLicense(): string {
    const member = this.members.shift();
    if (!member) throw new Error('out of roster members');
    return member.gameLicense;
  }

  /** Connects a player (a fresh roster member) with the person's Discord id. */
  connect(person: Person, name: string, license = this.freshLicense()): Promise<Timed> {
    const started = Date.now();
    const connection = this.server.connectPlayer({
      name,
      identifiers: [license, `discord:${PEOPLE[person].discordId}`, 'ip:127.0.0.1'],
    });
    return connection.decision.then((decision: Decision) => {
      const now = Date.now();
      return { name, decision, waitedMs: now - started, stalledMs: stalledMs(started, now) };
    });
  }

  /** What the gate logged as the basis of a player's decision (`roster`, `roster; a further check refused`, …). */
  basisOf(name: string): string | undefined {
    const pattern = new RegExp(`^${name} (?:admitted|refused) \\((.*)\\)$`);
    for (const line of this.rosterLog()) {
      const found = pattern.exec(line);
      if (found) return found[1];
    }
    return undefined;
  }

  /** Whether the training check of a player fell back on `gate.onError` (its own deadline or a failure). */
  trainingFellBack(name: string): boolean {
    // Logged as warnings: `warning: training: no answer for <name> within …`, `… could not check <name>: …`.
    return this.rosterLog().some(
      (l) =>
        l.includes(`training: no answer for ${name} within`) ||
        l.includes(`training: could not check ${name}:`),
    );
  }

  /** What other resources see of a player's training: the export, the state bag and `hasCompletedCourse`. */
  trainingOf(id: number): { exported: unknown; bag: unknown; completed: boolean } {
    const exports = this.caller.exports.roster!;
    return {
      exported: exports.getTraining!(id),
      bag: this.caller.eval<unknown>(`Player(${id}).state.training`),
      completed: exports.hasCompletedCourse!(id, REQUIRED_COURSE) === true,
    };
  }

  /** The member id other resources see for a player (the roster side, healthy in these rows). */
  memberOf(id: number): string | null {
    return (this.caller.exports.roster!.getMember!(id) as { id?: string } | null)?.id ?? null;
  }

  /** Arrival times of every request the learning service received (any key, or none). */
  requestTimes(): number[] {
    return this.learning.counters.log.map((e) => e.time).sort((a, b) => a - b);
  }

  /** Where either key (or its secret part) shows up: log lines, events, state bags, client events, files. */
  keyLeaks(): string[] {
    return keyLeaks(this.server, this.events, this.folder, [this.trainingKey, this.rosterKey]);
  }

  async close(): Promise<void> {
    this.wire.stop();
    this.server.stop();
    await Promise.all([this.roster.close(), this.learning.close()]);
    expectNoUnhandledRejections(this.server);
    rmSync(this.folder, { recursive: true, force: true });
  }
}
