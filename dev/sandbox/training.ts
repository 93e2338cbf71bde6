import type { Decision, FxServer, ScriptResource } from '../emulator';
import { DISCORD_IDS, type MockLearning } from '../mock-learning/server';
import type { MockRoster } from '../mock-roster/server';
import { expectThat, waitFor } from './expectation';

/** The course the sandbox's config requires for LSPD (`training.departmentCourses`). */
export const ACADEMY = 'Police Academy';
const DEPARTMENT_COURSES = { LSPD: [ACADEMY] };

/** The `training` part of the sandbox's config.json: on, against the mock, the academy for LSPD. */
export function trainingConfig(learning: MockLearning): Record<string, unknown> {
  return { enabled: true, baseUrl: learning.url, departmentCourses: DEPARTMENT_COURSES };
}

/** A player's training as the resource hands it across exports and events. */
export interface TrainingAnswer {
  linked: boolean;
  completions: { courseId: string; title: string; completedAt: string }[];
}

/** The training exports the sandbox calls. */
interface TrainingExports {
  getTraining(src: number): TrainingAnswer | null;
  hasCompletedCourse(src: number, course: string): boolean;
  isQualified(src: number, department: string): boolean;
}

export interface TrainingPartDeps {
  server: FxServer;
  caller: ScriptResource;
  roster: MockRoster;
  learning: MockLearning;
  print: (line: string) => void;
  /** Connects a player and prints the decision (the sandbox's join line). */
  join: (label: string, name: string, identifiers: string[]) => Promise<Decision>;
  /** Roster members from this index on are free (no scripted or burst player used them). */
  firstFreeMember: number;
}

/** `roster:trainingUpdated` as a caller resource receives it. */
interface TrainingUpdate {
  src: number;
  training: TrainingAnswer;
  at: number;
}

/**
 * The training side: a linked LSPD member who completed the academy and what the exports say of
 * them; an unlinked one, what `/linktraining` tells them, and the update once the link is confirmed.
 */
export async function runTrainingPart(deps: TrainingPartDeps): Promise<void> {
  const { server, caller, roster, learning, print, join } = deps;
  const training = caller.exports.roster as unknown as TrainingExports;
  const updates: TrainingUpdate[] = [];
  caller.on('roster:trainingUpdated', (src, answer) =>
    updates.push({ src: Number(src), training: answer as TrainingAnswer, at: performance.now() }),
  );
  const rosterLoaded = new Set<number>();
  caller.on('roster:playerLoaded', (src) => rosterLoaded.add(Number(src)));

  print(
    `mock learning service: "${learning.org.name}", ${learning.data.users.length} users, ${learning.data.links.size} linked to Discord, at ${learning.url}`,
  );
  print(
    `config.json: training.departmentCourses ${JSON.stringify(DEPARTMENT_COURSES)}; no gate.requireCourses, so joins are not checked`,
  );
  print(
    await waitFor('the training side to verify its key', () =>
      server.log.of('roster').find((line) => line.includes('connected to the learning service')),
    ),
  );

  // Two free ACTIVE LSPD members: one whose Discord is linked to the academy user who passed it,
  // one whose Discord is not linked at all.
  const [erinMember, frankMember] = roster.data.members
    .slice(deps.firstFreeMember)
    .filter(
      (m) =>
        m.status === 'ACTIVE' && roster.data.assignmentsOf(m.id).some((a) => a.departmentId === 'dept_lspd'),
    );
  expectThat(
    erinMember !== undefined && frankMember !== undefined,
    'the mock roster has no two free ACTIVE LSPD members',
  );
  const graduate = learning.data.users[0]!;
  const linkedId = [...learning.data.links].find(([, sub]) => sub === graduate.user_sub)?.[0];
  expectThat(linkedId !== undefined, `the mock has no Discord link for ${graduate.user_sub}`);
  const unlinkedId = DISCORD_IDS.find((id) => !learning.data.links.has(id));
  expectThat(unlinkedId !== undefined, 'every mock Discord id is linked');

  const ask = (call: string, value: unknown) => print(`${call.padEnd(56)} -> ${describeTraining(value)}`);
  const loadedTraining = (src: number, what: string) =>
    waitFor(`roster:trainingUpdated for ${what}`, () => updates.findLast((u) => u.src === src));

  const erin = await join(`Erin (member ${erinMember.id}, Discord linked)`, 'Erin', [
    erinMember.gameLicense,
    `discord:${linkedId}`,
    'ip:127.0.0.6',
  ]);
  expectThat(erin.admitted, `the ACTIVE member ${erinMember.id} was refused`);
  await loadedTraining(erin.id, 'the linked player');
  await waitFor(`roster:playerLoaded for player ${erin.id}`, () => rosterLoaded.has(erin.id));
  const erinTraining = training.getTraining(erin.id);
  ask(`exports.roster.getTraining(${erin.id})`, erinTraining);
  expectThat(
    erinTraining?.linked === true && erinTraining.completions.some((c) => c.title === ACADEMY),
    `getTraining(${erin.id}) should be linked with ${ACADEMY}, got ${JSON.stringify(erinTraining)}`,
  );
  const completed = training.hasCompletedCourse(erin.id, ACADEMY);
  ask(`exports.roster.hasCompletedCourse(${erin.id}, '${ACADEMY}')`, completed);
  const qualified = training.isQualified(erin.id, 'LSPD');
  ask(`exports.roster.isQualified(${erin.id}, 'LSPD')`, qualified);
  expectThat(completed && qualified, `player ${erin.id} passed the academy but is not qualified for LSPD`);

  print('');
  const frank = await join(`Frank (member ${frankMember.id}, Discord not linked)`, 'Frank', [
    frankMember.gameLicense,
    `discord:${unlinkedId}`,
    'ip:127.0.0.7',
  ]);
  expectThat(frank.admitted, `the ACTIVE member ${frankMember.id} was refused`);
  await loadedTraining(frank.id, 'the unlinked player');
  const frankTraining = training.getTraining(frank.id);
  ask(`exports.roster.getTraining(${frank.id})`, frankTraining);
  expectThat(frankTraining?.linked === false, `getTraining(${frank.id}) should say not linked`);
  ask(`exports.roster.isQualified(${frank.id}, 'LSPD')`, training.isQualified(frank.id, 'LSPD'));

  const linkCommand = async (): Promise<string> => {
    const sent = server.clientEvents.length;
    server.executeCommand('linktraining', frank.id);
    const chat = await waitFor(`the /linktraining answer to player ${frank.id}`, () =>
      server.clientEvents
        .slice(sent)
        .find((e) => e.event === 'chat:addMessage' && Number(e.target) === frank.id),
    );
    const { args } = chat.args[0] as { args: string[] };
    print(`/linktraining (player ${frank.id}) -> chat [${args[0]}] ${args[1]}`);
    return args[1] ?? '';
  };
  const answer = await linkCommand();
  const code = /the code (\S+?)[.\s(]/.exec(answer)?.[1];
  expectThat(code !== undefined, `/linktraining gave no link code: "${answer}"`);

  // The member signs up at the academy and enters the code there.
  const recruit = learning.data.addUser({ name: 'Frank Recruit' });
  const confirmed = learning.data.confirmLink(code, recruit.user_sub);
  expectThat(confirmed.ok, `the mock refused code ${code}: ${JSON.stringify(confirmed)}`);
  print(`mock: academy user "${recruit.name}" (${recruit.user_sub}) confirms the code ${code}`);
  const asked = performance.now();
  const again = await linkCommand();
  expectThat(again.includes('already linked'), `/linktraining after the link said "${again}"`);
  const update = await waitFor('roster:trainingUpdated after the link', () =>
    updates.find((u) => u.src === frank.id && u.at >= asked && u.training.linked),
  );
  print(
    `event roster:trainingUpdated(${update.src}) -> ${describeTraining(update.training)} (${Math.round(update.at - asked)} ms after /linktraining)`,
  );
  const linkedNow = training.getTraining(frank.id);
  ask(`exports.roster.getTraining(${frank.id}) now`, linkedNow);
  expectThat(linkedNow?.linked === true, `getTraining(${frank.id}) did not follow the link`);
}

/** A short rendering of a training answer (other values as they are). */
export function describeTraining(value: unknown): string {
  if (value === null || typeof value !== 'object' || !('linked' in value)) return String(value);
  const { linked, completions } = value as TrainingAnswer;
  if (!linked) return 'not linked';
  const courses = completions.map((c) => `${c.title} (${c.completedAt.slice(0, 10)})`).join(', ');
  return `linked; completed: ${courses || 'none'}`;
}
