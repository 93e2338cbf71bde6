import type { RosterContext } from '../../kernel/context';
import { answerWithin } from '../../platform/answer-within';
import { serverId, license as toLicense } from '../../platform/arguments';
import { errorMessage } from '../../platform/error-message';
import { licenseOf } from '../../platform/identifiers';
import { fx } from '../../platform/natives';
import type { MemberView } from '../../roster/member-view';
import type { ExportingFeature } from '../exports/exporting-feature';
import type { ExportAnswers } from '../exports/fivem/safe-exports';
import { rosterVerdict } from '../join-gate/decide';
import { CONNECT_QUEUE, type JoinCallback, linkConnectQueue, stillConnecting } from './fivem/connect-queue';
import { GateOutcomes } from './gate-outcomes';
import { describeRule, PriorityRules } from './priority-rules';

/**
 * How long a priority set for ConnectQueue lasts. ConnectQueue reads it once, when it places the
 * player right after the `OnJoin` callbacks; a short life keeps a demoted member's old power from
 * counting at a later connection.
 */
const TEMP_PRIORITY_SECONDS = 120;
/** How long past the join deadline a connecting player's license is kept for ConnectQueue. */
const CONNECTING_KEPT_MS = 60_000;
/**
 * What ConnectQueue is told for a player who left before it placed them. Nobody reads it (the
 * player is gone) but its console line; a refusal keeps the player out of its queue and connecting
 * lists, where it notices no departure.
 */
const LEFT_BEFORE_PLACED = 'Left before being placed in the queue.';

/**
 * Queue priority by department and rank: `getPriority`, `lookupPriority`
 * and, with ConnectQueue running, each member's priority set through its `OnJoin` from the gate's
 * own decision (no second roster request), a refused player refused there at once.
 */
export function attachQueuePriority(context: RosterContext): ExportingFeature {
  const { config, players, members, queries, clock, logger, resource } = context;
  const timeoutMs = config.gate.timeoutSeconds * 1000;
  const gateRules = { requireStatus: config.gate.requireStatus, departments: config.gate.departments };
  const rules = new PriorityRules(
    config.queue.priority,
    queries,
    (view) => rosterVerdict(view, gateRules).allow,
  );
  const outcomes = new GateOutcomes(clock);
  let leftOut: string[] | null = null;

  /** What is known now about a server id (a connecting one's temporary id too) or a license. */
  const knownView = (target: unknown): MemberView | null | undefined => {
    const id = serverId(target);
    if (id !== null) {
      const entry = players.get(id);
      if (entry?.view !== undefined) return entry.view;
      const license = entry ? entry.license : licenseOf(id);
      return license ? members.lastKnown(license) : undefined;
    }
    const license = toLicense(target);
    return license === null ? undefined : members.lastKnown(license);
  };

  /** The roster's answer: a connecting player's from the gate's decision, else asked for. */
  const answeredView = async (target: unknown): Promise<MemberView | null | undefined> => {
    const id = serverId(target);
    if (id !== null) {
      const entry = players.get(id);
      // Another resource's playerConnecting handler may run before the gate's has seen the player
      // (FXServer promises no order): the gate's decision for their license is on its way.
      const license = entry ? entry.license : licenseOf(id);
      if (license === null) return entry?.view;
      if (entry?.view === undefined && !players.isOnline(id)) {
        const since = entry?.since ?? clock.now();
        await outcomes.wait(id, since + timeoutMs);
      }
      return players.get(id)?.view ?? members.lastKnown(license);
    }
    const license = toLicense(target);
    if (license === null) return undefined;
    const resolution = await members.resolve(license, 'join');
    return resolution.kind === 'answer' ? resolution.view : resolution.lastKnown;
  };

  // Settled when this resource stops: a caller still waiting (a queue's predicate, in its own
  // deferral) is answered from memory then; after the stop nothing of this resource runs again.
  let stopped: () => void = () => undefined;
  const stopping = new Promise<void>((resolve) => {
    stopped = resolve;
  });

  const answers: ExportAnswers = {
    getPriority: [(target) => rules.powerOf(knownView(target)), 0],
    lookupPriority: [
      (target) =>
        answerWithin(
          Promise.race([answeredView(target), stopping.then(() => knownView(target))]).then((view) =>
            rules.powerOf(view),
          ),
          timeoutMs,
          clock,
          () => rules.powerOf(knownView(target)),
        ),
      0,
    ],
  };

  // ConnectQueue runs this inside its own deferral, before it places the player: the gate's
  // decision (from the mirror, usually at once) comes first, then the priority, then `allow`.
  const onJoin: JoinCallback = (src, allow) => {
    const tempId = String(src);
    const seen = connecting.get(tempId);
    const answer = (reason?: string) => {
      try {
        if (reason === undefined) allow();
        else allow(reason);
      } catch (error) {
        logger.warn(`${CONNECT_QUEUE}'s allow failed: ${errorMessage(error)}`);
      }
    };
    // Connecting since before this resource started: the gate never saw them, nothing to wait for.
    if (!seen) return answer();
    outcomes.wait(tempId, seen.since + timeoutMs).then(
      (outcome) => {
        if (outcome && !outcome.admitted) return answer(outcome.message);
        // Gone (closed the game while the roster answered): no priority, and no place in
        // ConnectQueue's lists, which would keep a player who never comes back.
        if (!stillConnecting(tempId)) return answer(LEFT_BEFORE_PLACED);
        if (seen.license !== null) {
          const power = rules.powerOf(players.get(tempId)?.view ?? members.lastKnown(seen.license));
          link.setPriority(seen.license, power, TEMP_PRIORITY_SECONDS);
        }
        answer();
      },
      () => answer(),
    );
  };
  const link = linkConnectQueue(resource, onJoin, logger, clock);
  // Every connection the gate sees, by temporary id: when it began (the wait's deadline) and its
  // license, kept because a refused player is gone from the server (and the registry) by the time
  // ConnectQueue runs its OnJoin half a second later.
  const connecting = new Map<string, { license: string | null; since: number }>();
  fx.on('playerConnecting', () => {
    const tempId = String(fx.source);
    connecting.set(tempId, { license: licenseOf(tempId), since: clock.now() });
  });

  return {
    exports: answers,
    decided(decision) {
      const outcome =
        decision.admitted || decision.message === undefined
          ? ({ admitted: true } as const)
          : { admitted: false as const, message: decision.message };
      outcomes.record(decision.tempId, outcome);
    },
    departmentsRead(catalog) {
      // A failed load hands an empty catalog: every rule would look unknown.
      if (!context.catalog.ready) return;
      // Named once: the periodic reload checks again but only the first reading is said.
      const problems = rules.check(catalog);
      if (leftOut === null) for (const problem of problems) logger.warn(problem);
      leftOut = problems;
    },
    sweep() {
      outcomes.sweep();
      const oldest = clock.now() - timeoutMs - CONNECTING_KEPT_MS;
      for (const [tempId, { since }] of connecting) if (since < oldest) connecting.delete(tempId);
    },
    stop() {
      outcomes.stop();
      stopped();
    },
    doctorLines() {
      const lines = [`✓ queue: ${queueFound(link.describe())}`];
      if (config.queue.priority.length === 0) {
        lines.push('  queue.priority has no rules: every player gets power 0.');
        return lines;
      }
      const online = [...players.onlinePlayers()].map(([, entry]) => entry.view);
      lines.push('  queue.priority, first match wins:');
      for (const rule of rules.rules) {
        const count = online.filter((view) => rules.matchOf(view) === rule).length;
        lines.push(`  ${describeRule(rule)} (${count} online member${count === 1 ? '' : 's'})`);
      }
      for (const problem of leftOut ?? []) lines.push(`! ${problem}`);
      return lines;
    },
  };
}

function queueFound(connectQueue: string): string {
  if (fx.GetResourceState(CONNECT_QUEUE) === 'started') return connectQueue;
  if (fx.GetResourceState('qbx_core') === 'started')
    return "qbx_core's queue: give a sub-queue the predicate in docs/queue-and-duty.md (it calls lookupPriority).";
  return 'no ConnectQueue running; other queues can call getPriority or lookupPriority.';
}
