import { afterEach } from 'vitest';
import { eventually, type Harness, startHarness } from '../harness';
import { type FleetServer, fleetServer } from './fleet';

// Two servers of one community on one key and one database: `main` (the harness's) starts first
// and reads the roster; `events` (its own emulator, the service through a counting proxy) follows.

export const config = (serverName: string) => ({
  api: { timeoutMs: 15_000 },
  refresh: { intervalSeconds: 3600, auditSeconds: 1 },
  share: { enabled: true, serverName },
});

/** Hears each server of a test as it starts: the main one's harness, then the follower. */
export type Keep = (h: Harness, events?: FleetServer) => void;

/**
 * Closes after each test of the file what it started (the follower first, then the main server);
 * the test hands each server to the returned `keep` as it starts.
 */
export function closeAfterEach(): Keep {
  let h: Harness | undefined;
  let events: FleetServer | undefined;
  afterEach(async () => {
    await events?.close();
    await h?.close();
    events = undefined;
    h = undefined;
  });
  return (harness, follower) => {
    h = harness;
    events = follower;
  };
}

/** Both servers up, the follower holding the shared roster; `keep` hears each as it starts. */
export async function twoServers(keep: Keep, members = 300): Promise<{ h: Harness; events: FleetServer }> {
  const harness = await startHarness({ database: true, members, config: config('main') });
  keep(harness);
  await eventually(() => /the roster mirror holds \d+ members/.test(harness.logText()), 20_000);
  await eventually(() => /sharing .*this server reads it/.test(harness.logText()), 10_000);
  const follower = await fleetServer(harness, config('events'));
  keep(harness, follower);
  await eventually(() => follower.logText().includes("holds the shared roster's"), 20_000);
  return { h: harness, events: follower };
}
