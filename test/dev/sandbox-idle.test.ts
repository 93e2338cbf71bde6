import { expect, it } from 'vitest';
import type { RequestLogEntry } from '../../dev/mock-http/mock-counters';
import { runSandbox } from '../../dev/sandbox';

/** The page asks for status.json every 4 s; the window asks faster, ten times. */
const STATUS_ASKS = 10;
const ASK_EVERY_MS = 400;

it('an idle sandbox with the panel open spends what an idle server with the default clocks does', async () => {
  let roster: RequestLogEntry[] = [];
  let learning: RequestLogEntry[] = [];
  await runSandbox({
    print: () => {},
    panel: async (panel, running) => {
      const from = Date.now();
      for (let i = 0; i < STATUS_ASKS; i++) {
        const response = await fetch(`${panel.url}status.json`, {
          headers: { authorization: `Bearer ${panel.token}` },
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS));
      }
      roster = running.roster.counters.log.filter((r) => r.time >= from && r.path.startsWith('/api/'));
      learning = running.learning.counters.log.filter((r) => r.time >= from);
    },
  });
  // Idle, with the defaults, the roster is asked only by the audit feed: once a minute, the members
  // created since its last read with it. So at most one pass falls in a window of a few seconds,
  // and status.json (the page's refresh) costs no request at all, to either service.
  const auditReads = roster.filter((r) => r.endpoint === 'GET /api/v1/audit-logs');
  const others = roster.filter(
    (r) => r.endpoint !== 'GET /api/v1/audit-logs' && !r.query.includes('createdAt.after'),
  );
  expect(auditReads.length).toBeLessThanOrEqual(1);
  expect(others.map((r) => `${r.endpoint}?${r.query}`)).toEqual([]);
  expect(learning.map((r) => r.endpoint)).toEqual([]);
}, 60_000);
