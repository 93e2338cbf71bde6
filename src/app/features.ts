/*
 * The resource's features, in order.
 *
 * To add a feature: make its folder under `features/`, whose `index.ts` exports `attachX(context)`,
 * and add one line to this list; nothing else here changes. `attachX` registers the feature's
 * own handlers and commands (its timers in `start`) and returns the hooks it needs (`Feature` in
 * kernel/feature.ts: start, stop, ready, a player's data, doctor lines…) and its answers to
 * documented exports (each declared once, in features/exports/documented-exports.ts). A value it
 * offers the others is a handle (kernel/handle.ts) declared in its folder and provided when
 * attached; a feature that asks for it reads it when needed, null while the provider is off. A
 * moment several features must hear of, that no hook covers yet, becomes a new optional hook,
 * called where that moment happens. The place in the list matters: features are attached, started
 * and stopped in list order, and every hook is called in list order too.
 */

import { attachAudit } from '../features/audit/index';
import { attachRosterCommand } from '../features/console/index';
import { attachDailyBudget } from '../features/day-budget/index';
import { attachDutyHours } from '../features/duty/index';
import type { ExportingFeature } from '../features/exports/exporting-feature';
import { attachExports } from '../features/exports/index';
import { attachJobs } from '../features/jobs/index';
import { attachJoinGate } from '../features/join-gate/index';
import { attachKeyCheck } from '../features/key-check/index';
import { attachMirror } from '../features/mirror/index';
import { attachPanel } from '../features/panel/index';
import { attachPermissions } from '../features/permissions/index';
import { attachPlayers } from '../features/players/index';
import { attachQueuePriority } from '../features/queue/index';
import { attachRanks } from '../features/ranks/index';
import { attachShare } from '../features/share/index';
import { attachSnapshot } from '../features/snapshot/index';
import { attachTraining } from '../features/training/index';
import type { RosterContext } from '../kernel/context';

/** A feature's entry point: registers what the feature needs, hands back its hooks and export answers. */
export type AttachFeature = (context: RosterContext) => ExportingFeature;

export const FEATURES: readonly AttachFeature[] = [
  // First to stop: the players still waiting are decided while everything else still runs.
  attachJoinGate,
  // First to start: what a previous run granted is removed before anything grants again.
  attachPermissions,
  // Loaded when attached, so the last-known members are there before the first lookup.
  attachSnapshot,
  // Before the players: its playerJoining handler must run before the roster's, which may emit.
  attachTraining,
  attachPlayers,
  attachExports,
  attachRanks,
  attachRosterCommand,
  attachPanel,
  // After the players: the lookups of those already online queue ahead of the key check.
  attachKeyCheck,
  attachAudit,
  attachMirror,
  // After the mirror, which it shares: it holds the mirror's own reads until the database says who reads.
  attachShare,
  attachQueuePriority,
  attachDutyHours,
  attachJobs,
  // Its count of the day is read back when attached, before any request; its doctor line comes last.
  attachDailyBudget,
];
