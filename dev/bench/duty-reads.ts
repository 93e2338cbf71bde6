import { readDutyFields } from '../../src/features/duty/duty-fields';
import { DutyLedger } from '../../src/features/duty/duty-ledger';
import { DutyReader, dutyBudget } from '../../src/features/duty/duty-reader';
import { silentLogger, systemClock } from '../../src/platform/ports';
import { createRosterApi, rosterUserAgent } from '../../src/roster/client';
import { seededRandom } from '../mock-http/seeded-random';
import { startMockRoster } from '../mock-roster/server';
import type { DutyBenchResult } from './queue-bench';
import { SERVICE_LATENCY_MS } from './storm-scenario';

const DAY_MS = 86_400_000;
const REFRESHES = 8;

/**
 * Duty hours with 1,000 members online, as src/features/duty/index.ts reads them: the
 * fields from the mock's OpenAPI description, then `REFRESHES` refreshes with the feature's
 * budget, the first ones catching up on 30 days of sessions (about three a member), a few members
 * going on duty between refreshes. Counts the duty-sessions requests the mock saw in each.
 */
export async function dutyReads(onlinePlayers = 1_000): Promise<DutyBenchResult> {
  const mock = await startMockRoster({ port: 0, members: 2_000, seed: 1 });
  mock.faults.latency(SERVICE_LATENCY_MS);
  for (const key of mock.keyRecords) key.perMinute = 6_000;
  try {
    const api = createRosterApi({
      baseUrl: mock.url,
      apiKey: mock.keys.full,
      timeoutMs: 5_000,
      perMinute: 6_000,
      perDay: 1_000_000,
      userAgent: rosterUserAgent('bench'),
      clock: systemClock,
      logger: silentLogger,
      random: seededRandom(5),
    });
    const reading = readDutyFields(await api.getRaw('/api/v1/openapi.json'));
    if (!reading.ok) throw new Error(`duty fields: ${reading.why}`);
    const online = mock.data.members.slice(0, onlinePlayers).map((m) => m.id);
    const random = seededRandom(11);
    const now = Date.now();
    for (const member of online)
      for (let i = Math.floor(random() * 7); i > 0; i--)
        mock.data.addDutySession(
          member,
          now - Math.floor(random() * 30 * DAY_MS),
          20 + Math.floor(random() * 200),
        );
    const reader = new DutyReader({
      list: (path, query, lane, maxPages) => api.list(path, query, lane, maxPages),
      fields: reading.fields,
      ledger: new DutyLedger(),
      clock: systemClock,
      logger: silentLogger,
    });
    const requestsPerRefresh: number[] = [];
    let known = 0;
    for (let r = 0; r < REFRESHES; r++) {
      const before = mock.counters.log.filter((e) => e.endpoint === 'GET /api/v1/duty-sessions').length;
      const done = await reader.refresh(online, dutyBudget(online.length));
      const after = mock.counters.log.filter((e) => e.endpoint === 'GET /api/v1/duty-sessions').length;
      requestsPerRefresh.push(after - before);
      known = Math.max(known, done.members);
      for (let i = 0; i < 20; i++)
        mock.data.addDutySession(online[Math.floor(random() * online.length)]!, Date.now() - 60_000, null);
    }
    await api.close();
    return { onlinePlayers, requestsPerRefresh, intervalSeconds: 300, knownAfterLast: known };
  } finally {
    await mock.close();
  }
}
