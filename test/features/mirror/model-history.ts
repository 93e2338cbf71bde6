import fc from 'fast-check';
import { type EntryStyle, PLAIN } from './model-entries';
import { STATUSES } from './model-roster';
import type { Fault } from './model-service';

/**
 * One history the model service lives through: a first roster, the service's clock, the gate's
 * rules, then episodes of changes, faults and joins while the resource reads; each episode is
 * followed by a quiet period and a check of every license.
 */
export interface History {
  seed: number;
  roster: { members: number; rejoined: number; ties: number };
  /** The service's clock minus this server's. */
  offsetMs: number;
  auditSeconds: number;
  /** The key's requests per minute (a key may be set lower than the service's 120). */
  perMinute: number;
  gate: { requireStatus: string[]; departments: string[] };
  episodes: Step[][];
}

/** Which request an armed change waits for. */
export type Target = 'members-list' | 'assignments-list' | 'audit' | 'lookup';

export type Change =
  | { kind: 'status'; pick: number; status: string }
  | { kind: 'transfer'; pick: number; to: number }
  | { kind: 'drop-assignment'; pick: number }
  | { kind: 'add-assignment'; pick: number; to: number }
  | { kind: 'add-member'; status: string; to: number }
  | { kind: 'rejoin'; pick: number }
  | { kind: 'remove'; pick: number };

export type Step =
  | { kind: 'wait'; ms: number }
  /** A change, made now, or when the `nth` request to `on` arrives (in the middle of a read). */
  | { kind: 'change'; change: Change; style: EntryStyle; on?: { target: Target; nth: number } }
  /** For `ms`, this share of requests fails. */
  | { kind: 'faults'; ms: number; rate: number; kinds: Fault[] }
  /** Players join: every license a change touched, and a few others. */
  | { kind: 'probe' };

/** The furthest behind a sane entry is stamped (a late commit): within the overlap a read keeps. */
export const STAMP_BEHIND_MAX_MS = 2 * 60_000;
/** The service's clock is at most this far from this server's. */
export const OFFSET_MAX_MS = 15 * 60_000;

/**
 * What histories may hold; all of it by default. Narrower mixes find one kind of fault at a time
 * (e.g. only entries stamped behind), which shrinks to a plainer counterexample.
 */
export interface Mix {
  /** Licenses held by an old TERMINATED membership and a new one, at first and by rejoining. */
  shared: boolean;
  ahead: boolean;
  behind: boolean;
  unreadable: boolean;
  faults: boolean;
  /** Rosters of more than a page. */
  large: boolean;
  changes: readonly Change['kind'][];
  targets: readonly Target[];
}

export const FULL_MIX: Mix = {
  shared: true,
  ahead: true,
  behind: true,
  unreadable: true,
  faults: true,
  large: true,
  changes: ['status', 'transfer', 'drop-assignment', 'add-assignment', 'add-member', 'rejoin', 'remove'],
  targets: ['members-list', 'assignments-list', 'audit', 'lookup'],
};

const pick = fc.nat({ max: 1000 });
const department = fc.nat({ max: 2 });
const status = fc.constantFrom(...STATUSES);

const CHANGES: { kind: Change['kind']; weight: number; arbitrary: fc.Arbitrary<Change> }[] = [
  { kind: 'status', weight: 4, arbitrary: fc.record({ kind: fc.constant('status' as const), pick, status }) },
  {
    kind: 'transfer',
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('transfer' as const), pick, to: department }),
  },
  {
    kind: 'drop-assignment',
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('drop-assignment' as const), pick }),
  },
  {
    kind: 'add-assignment',
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('add-assignment' as const), pick, to: department }),
  },
  {
    kind: 'add-member',
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('add-member' as const), status, to: department }),
  },
  { kind: 'rejoin', weight: 1, arbitrary: fc.record({ kind: fc.constant('rejoin' as const), pick }) },
  { kind: 'remove', weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick }) },
];

function styles(mix: Mix): fc.Arbitrary<EntryStyle> {
  const plain = { weight: 8, arbitrary: fc.constant(PLAIN) };
  // One node of the service with a fast clock: minutes to an hour and a half ahead.
  const ahead = {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 90 })
      .map((minutes) => ({ skewMs: minutes * 60_000, unreadable: false })),
  };
  // A slow node, or a late commit: stamped up to a few minutes before it was written.
  const behind = {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: STAMP_BEHIND_MAX_MS / 1000 })
      .map((seconds) => ({ skewMs: -seconds * 1000, unreadable: false })),
  };
  const unreadable = { weight: 1, arbitrary: fc.constant({ skewMs: 0, unreadable: true }) };
  return fc.oneof(
    plain,
    ...(mix.ahead ? [ahead] : []),
    ...(mix.behind ? [behind] : []),
    ...(mix.unreadable ? [unreadable] : []),
  );
}

function steps(mix: Mix): fc.Arbitrary<Step> {
  const changes = CHANGES.filter((c) => mix.changes.includes(c.kind) && (mix.shared || c.kind !== 'rejoin'));
  const change = fc.record(
    {
      kind: fc.constant('change' as const),
      change: fc.oneof(...changes),
      style: styles(mix),
      on: fc.record({ target: fc.constantFrom(...mix.targets), nth: fc.integer({ min: 1, max: 3 }) }),
    },
    { requiredKeys: ['kind', 'change', 'style'] },
  );
  const wait = fc.record({
    kind: fc.constant('wait' as const),
    ms: fc.integer({ min: 1, max: 90 }).map((s) => s * 1000),
  });
  const faults = fc.record({
    kind: fc.constant('faults' as const),
    ms: fc.integer({ min: 5, max: 150 }).map((s) => s * 1000),
    rate: fc.constantFrom(0.2, 0.5, 1),
    kinds: fc.constantFrom<Fault[]>(['5xx'], ['429'], ['5xx', '429']),
  });
  return fc.oneof(
    { weight: 3, arbitrary: wait },
    { weight: 5, arbitrary: change },
    ...(mix.faults ? [{ weight: 1, arbitrary: faults }] : []),
    { weight: 2, arbitrary: fc.constant({ kind: 'probe' as const }) },
  );
}

export function histories(overrides: Partial<Mix> = {}): fc.Arbitrary<History> {
  const mix = { ...FULL_MIX, ...overrides };
  return fc.record({
    seed: fc.nat(),
    roster: fc.record({
      members: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 1, max: 30 }) },
        // More than a page of members and of assignments: paging is exercised, and with a low
        // limit on the key the first read spans several audit reads.
        ...(mix.large ? [{ weight: 1, arbitrary: fc.integer({ min: 90, max: 450 }) }] : []),
      ),
      rejoined: mix.shared ? fc.integer({ min: 0, max: 3 }) : fc.constant(0),
      ties: fc.constantFrom(0, 0.5, 0.9),
    }),
    offsetMs: fc.oneof(
      { weight: 1, arbitrary: fc.constant(0) },
      { weight: 2, arbitrary: fc.integer({ min: -OFFSET_MAX_MS, max: OFFSET_MAX_MS }) },
    ),
    auditSeconds: fc.constantFrom(60, 30),
    // A lower limit spreads the mirror's reads (half the key's minute) over several audit reads.
    perMinute: fc.constantFrom(120, 40, 20),
    gate: fc.record({
      requireStatus: fc.constantFrom(['ACTIVE'], ['ACTIVE', 'LOA']),
      departments: fc.constantFrom<string[]>([], ['LSPD'], ['San Andreas Fire Rescue', 'dep_bcso']),
    }),
    episodes: fc.array(fc.array(steps(mix), { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 4 }),
  });
}
