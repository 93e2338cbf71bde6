import { DISCORD_IDS, type MockLearning, startMockLearning } from '../../../dev/mock-learning/server';
import type { MockMember } from '../../../dev/mock-roster/records';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { type Emulator, ROSTER_EVENTS, RowRig, startEmulator, type Timed } from './rig';

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
export class TrainingRig extends RowRig {
  /** The training key (and the roster key, which must not show either). */
  readonly trainingKey: string;
  readonly rosterKey: string;
  private readonly members: MockMember[];

  private constructor(
    readonly roster: MockRoster,
    readonly learning: MockLearning,
    emulator: Emulator,
  ) {
    super(emulator, learning.url, [...ROSTER_EVENTS, 'roster:trainingUpdated']);
    this.trainingKey = learning.keys[KEY_NAME]!;
    this.rosterKey = roster.keys.full!;
    this.members = roster.data.members.filter((m) => m.status === 'ACTIVE');
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
    const emulator = await startEmulator(
      {
        ...config,
        training: { ...(config.training as Record<string, unknown>), enabled: true, baseUrl: learning.url },
      },
      {
        roster_api_key: roster.keys.full!,
        roster_base_url: roster.url,
        roster_training_api_key: learning.keys[KEY_NAME]!,
      },
      ['roster_api_key', 'roster_training_api_key'],
    );
    return new TrainingRig(roster, learning, emulator);
  }

  /** An ACTIVE roster member's license not used yet in this row. */
  freshLicense(): string {
    const member = this.members.shift();
    if (!member) throw new Error('out of roster members');
    return member.gameLicense;
  }

  /** Connects a player (a fresh roster member) with the person's Discord id. */
  connect(person: Person, name: string, license = this.freshLicense()): Promise<Timed> {
    return this.connectWith(name, [license, `discord:${PEOPLE[person].discordId}`, 'ip:127.0.0.1']);
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

  protected keys(): string[] {
    return [this.trainingKey, this.rosterKey];
  }

  protected async closeServices(): Promise<void> {
    await Promise.all([this.roster.close(), this.learning.close()]);
  }
}
