import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestLogEntry } from '../mock-http/mock-counters';
import { startMockRoster } from '../mock-roster/server';
import { departmentsInMock, FullDataProbe } from './full-data-probe';
import { summarizeFullData } from './full-data-summary';
import {
  mirrorComplete,
  mirrorHolds,
  rosterFolder,
  rosterReady,
  sleep,
  startGateServer,
} from './gate-servers';
import { runJoinStorm, type StormSummary, summarizeStorm } from './join-storm';
import { choosePlayers } from './population';
import type { Progress } from './progress';
import { requestKind } from './request-log';
import { SERVICE_LATENCY_MS } from './storm-scenario';

export interface RestartResult {
  players: number;
  /** Members in the \`roster-snapshot.json\` the first server left behind. */
  snapshotMembers: number;
  /** Members the second server said it loaded from it. */
  snapshotLoaded: number;
  /** The mirror was complete again when the first player reconnected. */
  mirrorCompleteBeforeReconnects: boolean;
  /** Members and assignments requests from the restart until every reconnected player's data was complete. */
  memberRequests: number;
  /** Of them: per-player lookups (`gameLicense`/`memberId` asked for) and list pages (the mirror's read). */
  lookupRequests: number;
  listRequests: number;
  /** Members and assignments requests from the restart until the mirror was complete again. */
  memberRequestsUntilMirror: number;
  /** Restart → the mirror complete again. */
  mirrorCompleteMs: number;
  /** The reconnects; requests counted from the restart (start-up's own included). */
  summary: StormSummary;
}

const MEMBER_ENDPOINTS = new Set(['GET /api/v1/members', 'GET /api/v1/department-assignments']);

/**
 * A server restart: a server whose mirror is complete admits `players` known players (members,
 * any status), then stops (the resource saves its snapshot) and a new server starts from the
 * same resource folder; 3 s after its key check every player reconnects, spread over 10 s.
 * Counts the member requests the restart costs.
 */
export async function restartScenario(players = 1_000, progress?: Progress): Promise<RestartResult> {
  const mock = await startMockRoster({ port: 0, members: 2_000, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  const folder = rosterFolder(undefined);
  const known = choosePlayers(mock.data, players, { strangerShare: 0, seed: 9 });
  try {
    const before = await startGateServer('roster', mock, { folder });
    try {
      await rosterReady(before, mock);
      await mirrorComplete(before);
      progress?.update(`restart: ${players} players join before the restart…`);
      await runJoinStorm([before.server], known, { spanMs: 10_000 });
    } finally {
      before.close();
    }
    const snapshotMembers = membersIn(join(folder, 'roster-snapshot.json'));
    const restartedAt = Date.now();
    const mark = mock.counters.log.length;
    const after = await startGateServer('roster', mock, { folder });
    try {
      await rosterReady(after, mock);
      await sleep(3_000);
      const mirrorCompleteBeforeReconnects = mirrorHolds(after.server) !== null;
      const probe = new FullDataProbe([after.server], departmentsInMock(mock));
      progress?.update(`restart: ${players} players reconnect…`);
      const beganAt = Date.now();
      const { samples } = await runJoinStorm([after.server], known, { spanMs: 10_000 });
      const admitted = samples.filter((s) => s.admitted && s.id !== null);
      await probe.waitForAll(
        admitted.map((s) => ({ server: 0, id: s.id!, license: s.player.license })),
        20_000,
      );
      await sleep(SERVICE_LATENCY_MS * 4);
      const toEpoch = Date.now() - performance.now();
      const memberLog = (log: readonly RequestLogEntry[]) =>
        log.filter((e) => MEMBER_ENDPOINTS.has(e.endpoint));
      const untilComplete = summarizeFullData(
        samples,
        probe,
        memberLog(mock.counters.log.slice(mark)),
        toEpoch,
      ).requestsUntilComplete;
      const lastComplete =
        Math.max(...admitted.map((s) => probe.completeAt(s.player.license) ?? 0)) + toEpoch;
      const reconnectLog = memberLog(mock.counters.log.slice(mark)).filter((e) => e.time <= lastComplete);
      const lookups = reconnectLog.filter((e) => requestKind(e).includes('by player')).length;
      const summary = summarizeStorm(samples, mock, mark, beganAt);
      progress?.update('restart: waiting for the mirror to complete again…');
      const mirrorAt = await mirrorComplete(after);
      return {
        players,
        snapshotMembers,
        snapshotLoaded: snapshotLoaded(after.server.log.lines),
        mirrorCompleteBeforeReconnects,
        memberRequests: untilComplete,
        lookupRequests: lookups,
        listRequests: reconnectLog.length - lookups,
        memberRequestsUntilMirror: memberLog(mock.counters.log.slice(mark)).filter((e) => e.time <= mirrorAt)
          .length,
        mirrorCompleteMs: mirrorAt - restartedAt,
        summary,
      };
    } finally {
      after.close();
    }
  } finally {
    await mock.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Members a snapshot file holds (0 when there is none). */
function membersIn(path: string): number {
  if (!existsSync(path)) return 0;
  // Version 2 keeps the mirror's members beside the cache's last-known ones; the larger counts.
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as {
    members?: unknown[];
    mirror?: { members?: unknown[] };
  };
  const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  return Math.max(count(parsed.members), count(parsed.mirror?.members));
}

/** "loaded N last-known member(s) from the snapshot." (0 when the line is missing). */
function snapshotLoaded(lines: readonly string[]): number {
  for (const line of lines) {
    const found =
      /loaded (\d+) last-known member|loaded the roster mirror from the snapshot \((\d+) members\)/.exec(
        line,
      );
    if (found) return Number(found[1] ?? found[2]);
  }
  return 0;
}
