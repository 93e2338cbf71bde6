import { rmSync } from 'node:fs';
import { FxServer, type ScriptResource } from '../../../dev/emulator';
import {
  DISCORD_IDS,
  type MockLearning,
  type MockLearningOptions,
  startMockLearning,
} from '../../../dev/mock-learning/server';
import type { MockMember } from '../../../dev/mock-roster/records';
import { type MockRoster, startMockRoster } from '../../../dev/mock-roster/server';
import { eventually, expectNoUnhandledRejections, resourceFolder } from '../harness';

export { DISCORD_IDS, eventually };

export interface TrainingHarness {
  roster: MockRoster;
  learning: MockLearning;
  server: FxServer;
  folder: string;
  caller: ScriptResource;
  /** The training key in use (to prove it never shows). */
  trainingKey: string;
  logText(): string;
  /** An ACTIVE roster member not yet used by this harness. */
  member(): MockMember;
  /** An unused ACTIVE roster member whose only department has this short name. */
  memberIn(shortName: string): MockMember;
  /** Connects a roster member with these extra identifiers; resolves to the decision. */
  connect(name: string, extra: string[], member?: MockMember): ReturnType<FxServer['connectPlayer']>;
  /** Connects and expects admission; resolves to the final id. */
  join(name: string, extra: string[]): Promise<number>;
  close(): Promise<void>;
}

export interface TrainingHarnessOptions {
  /** Merged over `{ training: { enabled: true, baseUrl } }`. */
  config?: Record<string, unknown>;
  training?: Record<string, unknown>;
  gate?: Record<string, unknown>;
  learning?: MockLearningOptions;
  /** Key name in the mock (default `enroll`), or `null` for no training key. */
  keyName?: string | null;
  beforeStart?: (h: { learning: MockLearning; folder: string }) => void | Promise<void>;
}

/** The bundle in the emulator with the mock roster and the mock learning service on loopback. */
export async function startTrainingHarness(options: TrainingHarnessOptions = {}): Promise<TrainingHarness> {
  const roster = await startMockRoster({ port: 0, members: 60, seed: 7 });
  const learning = await startMockLearning({ port: 0, ...options.learning });
  const config = {
    ...options.config,
    // A generous rate so tests are not paced at one request a second (the limiter has its own tests).
    training: { enabled: true, baseUrl: learning.url, perMinute: 1200, ...options.training },
    gate: { ...options.gate },
  };
  const folder = resourceFolder(config);
  const trainingKey = options.keyName === null ? '' : learning.keys[options.keyName ?? 'enroll']!;
  const server = new FxServer({
    convars: {
      roster_api_key: roster.keys.full!,
      roster_base_url: roster.url,
      roster_training_api_key: trainingKey,
    },
    convarPermissions: [
      ['roster', 'roster_api_key'],
      ['roster', 'roster_training_api_key'],
    ],
    // FXServer's own handler order: the resource that registered for an event last runs first.
    order: 'registration',
  });
  await server.start();
  await options.beforeStart?.({ learning, folder });
  server.startResource('roster', folder);
  const caller = server.createScriptResource('caller');
  const active = roster.data.members.filter((m) => m.status === 'ACTIVE');
  const taken = new Set<string>();
  const harness: TrainingHarness = {
    roster,
    learning,
    server,
    folder,
    caller,
    trainingKey,
    logText: () => server.log.lines.join('\n'),
    member: () => {
      const next = active.find((m) => !taken.has(m.id))!;
      taken.add(next.id);
      return next;
    },
    memberIn(shortName) {
      const department = roster.data.data.departments.find((d) => d.shortName === shortName)!;
      const found = active.find((m) => {
        const assignments = roster.data.assignmentsOf(m.id);
        return !taken.has(m.id) && assignments.length === 1 && assignments[0]!.departmentId === department.id;
      })!;
      taken.add(found.id);
      return found;
    },
    connect: (name, extra, member) =>
      server.connectPlayer({ name, identifiers: [(member ?? harness.member()).gameLicense, ...extra] }),
    async join(name, extra) {
      const decision = await harness.connect(name, extra).decision;
      if (!decision.admitted) throw new Error(`${name} was refused: ${decision.reason}`);
      return decision.id;
    },
    async close() {
      server.stop();
      await Promise.all([roster.close(), learning.close()]);
      expectNoUnhandledRejections(server);
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Both sides started: the roster key verified and the learning service's completions loaded. */
export async function trainingReady(h: TrainingHarness): Promise<void> {
  await eventually(() => h.logText().includes('connected to the roster'));
  await eventually(() => h.logText().includes('training: connected to the learning service'));
  // Ready once the resource itself says it holds the courses and the completions (`roster
  // training`), not when the mock has answered: on a busy machine an answer can still be on its way.
  const said = () => {
    const lines = h.server.log.of('roster');
    return (
      lines.some((line) => /courses: \d+ published/.test(line)) &&
      lines.some((line) => line.includes('completions refreshed'))
    );
  };
  for (let asked = 0; !said(); asked++) {
    if (asked === 100) throw new Error('the resource never said it holds the completions');
    h.server.executeCommand('roster training');
    await h.server.nextTick();
    await h.server.nextTick();
  }
}

/** A copy made in this realm. */
export const plain = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

export const discord = (i: number) => `discord:${DISCORD_IDS[i]}`;
