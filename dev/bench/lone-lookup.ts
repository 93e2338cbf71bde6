import { Pool } from 'undici';
import { silentLogger, systemClock } from '../../src/platform/ports';
import { createRosterApi, rosterUserAgent } from '../../src/roster/client';
import { startMockRoster } from '../mock-roster/server';
import { percentile } from './join-storm';

export interface LoneLookupResult {
  /** Median client lookup minus median raw request, one round trip (a license not on the roster). */
  addedMs: number;
  lookupMs: number;
  rawMs: number;
  /** The same for a member: lookup (members + assignments) minus two raw requests in a row. */
  memberAddedMs: number;
}

/**
 * The client's own cost on one round trip: `api.lookup(license)` on an idle client against a
 * raw undici request to the same endpoint, interleaved, medians compared. The mock answers at
 * once and the key's limit is lifted so the limiter never has to wait (its bookkeeping still runs).
 */
export async function loneLookup(samples = 200): Promise<LoneLookupResult> {
  const mock = await startMockRoster({
    port: 0,
    members: 200,
    seed: 1,
    keys: [
      {
        name: 'bench',
        scopes: ['roster:read', 'departments:read'],
        perMinute: 1_000_000,
        perDay: 100_000_000,
      },
    ],
  });
  const key = mock.keys.bench;
  if (!key) throw new Error('the mock has no bench key');
  const api = createRosterApi({
    baseUrl: mock.url,
    apiKey: key,
    timeoutMs: 5_000,
    perMinute: 1_000_000,
    perDay: 100_000_000,
    userAgent: rosterUserAgent('bench'),
    clock: systemClock,
    logger: silentLogger,
  });
  const raw = new Pool(mock.url, { connections: 8 });
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
  const rawGet = async (path: string) => {
    const response = await raw.request({ path, method: 'GET', headers });
    return JSON.parse(await response.body.text()) as { data: { id: string }[] };
  };
  const stranger = mock.data.nonMemberLicense(0);
  const member = mock.data.members[10]!;
  const time = async (run: () => Promise<unknown>) => {
    const start = performance.now();
    await run();
    return performance.now() - start;
  };
  const lookups: number[] = [];
  const raws: number[] = [];
  const memberLookups: number[] = [];
  const memberRaws: number[] = [];
  try {
    for (let i = 0; i < samples + 20; i++) {
      const warm = i < 20;
      const l = await time(() => api.lookup(stranger));
      const r = await time(() => rawGet(`/api/v1/members?gameLicense=${encodeURIComponent(stranger)}`));
      const ml = await time(() => api.lookup(member.gameLicense));
      const mr = await time(async () => {
        const found = await rawGet(`/api/v1/members?gameLicense=${encodeURIComponent(member.gameLicense)}`);
        await rawGet(`/api/v1/department-assignments?memberId=${found.data[0]!.id}&include=rank`);
      });
      if (warm) continue;
      lookups.push(l);
      raws.push(r);
      memberLookups.push(ml);
      memberRaws.push(mr);
    }
  } finally {
    await api.close();
    await raw.close();
    await mock.close();
  }
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  return {
    addedMs: median(lookups) - median(raws),
    lookupMs: median(lookups),
    rawMs: median(raws),
    memberAddedMs: median(memberLookups) - median(memberRaws),
  };
}
