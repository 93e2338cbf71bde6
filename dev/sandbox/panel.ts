import type { PanelStatus } from '../../src/features/panel/panel-status-shape';
import { expectThat } from './expectation';

/** Where the sandbox's owner's panel answers, and the token that opens it. */
export interface PanelAccess {
  url: string;
  token: string;
}

/**
 * One request to the owner's panel as a tool makes it: `status.json` with
 * the token as a Bearer header, summed up in one line.
 */
export async function runPanelRequest(panel: PanelAccess, print: (line: string) => void): Promise<void> {
  const url = `${panel.url}status.json`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${panel.token}` } });
  const call = `GET ${new URL(url).pathname} (Authorization: Bearer <token>)`;
  if (!response.ok) expectThat(false, `${call} answered ${response.status}: ${await response.text()}`);
  const status = (await response.json()) as PanelStatus;
  const { health, players, joins, rateLimit } = status;
  const admitted = joins.recent.filter((j) => j.admitted).length;
  print(
    `${call} -> ${response.status}: key ${health.keyVerified ? 'verified' : 'NOT verified'} for "${health.community}", ${players.onlineCount} players online, ${joins.recent.length} join decisions (${admitted} admitted), ${rateLimit.requestsTotal} requests to the roster`,
  );
  expectThat(
    health.keyVerified && players.onlineCount > 0,
    `status.json shows no verified key or no players`,
  );
}
