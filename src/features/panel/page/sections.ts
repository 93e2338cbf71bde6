import type { PanelStatus } from '../panel-status-shape';
import { ago, clock, h, lines, table } from './dom';

/** The panel's larger sections, as the children of their element: the page fills them in. */
type Parts = (Node | false | null)[];

/** A figure with its label under it. */
export const stat = (label: string, value: string, cls = '') =>
  h('div', {}, h('b', { class: cls }, value), h('span', { class: 'dim' }, label));

/** Members held, the last full read, the last audit catch-up and today's requests. */
export function mirrorParts(mirror: NonNullable<PanelStatus['mirror']>, now: number): Parts {
  const since = (at: number | null, none: string) => (at === null ? none : ago(at, now));
  const tone =
    mirror.state === 'up' && mirror.deciding
      ? 'ok'
      : mirror.state === 'stale' || mirror.lastReadFailure || mirror.state === 'up'
        ? 'bad'
        : 'dim';
  const restart = mirror.caughtUpFromSnapshot;
  const gap = mirror.lastGap;
  return [
    h('p', { class: tone, id: 'mirror-state' }, mirror.summary),
    h(
      'div',
      { class: 'stats' },
      stat('members held', String(mirror.held)),
      stat('last full read', since(mirror.lastFullReadAt, 'never')),
      stat('last audit catch-up', since(mirror.lastAuditCatchUpAt, 'not yet')),
      stat('requests today', String(mirror.requestsToday)),
    ),
    restart !== null &&
      h(
        'p',
        { class: 'dim' },
        `caught up from snapshot at ${clock(restart.at)} (${restart.reads} audit read${restart.reads === 1 ? '' : 's'})`,
      ),
    gap !== null &&
      h(
        'p',
        { class: gap.rereadAt === null ? 'bad' : 'dim', id: 'mirror-gap' },
        `${mirror.gaps === 1 ? 'gap' : `${mirror.gaps} gaps`} in the audit log, the last ${ago(gap.at, now)} (${gap.reason}): ${
          gap.rereadAt === null
            ? 'joins are looked up until the full read begun after it completes'
            : `ended by a full read at ${clock(gap.rereadAt)}`
        }`,
      ),
    mirror.clockSkew !== null &&
      h(
        'p',
        { class: 'dim', id: 'mirror-skew' },
        `${mirror.clockSkew.entries} audit entr${mirror.clockSkew.entries === 1 ? 'y' : 'ies'} stamped ahead of the service's clock, the last (${mirror.clockSkew.last.entry}) ${Math.round(mirror.clockSkew.last.aheadMs / 60_000)} min ahead, ${ago(mirror.clockSkew.last.at, now)}: acted on, the log read on the service's clock`,
      ),
    mirror.lastReadFailure !== null &&
      h('p', { class: 'bad' }, `last read failed: ${mirror.lastReadFailure}`),
  ];
}

/** Sharing on or off, the reader and its lease, this server's lag, the key's shared budget. */
export function sharingParts(sharing: NonNullable<PanelStatus['sharing']>, now: number): Parts {
  const tone = sharing.on ? 'ok' : sharing.role === 'starting' ? 'dim' : 'bad';
  const lease = sharing.leaseLeftMs === null ? 'none' : `${Math.round(sharing.leaseLeftMs / 1000)} s left`;
  return [
    h('p', { class: tone, id: 'sharing-state' }, sharing.summary),
    h(
      'div',
      { class: 'stats' },
      stat('reader', sharing.reader ?? 'none'),
      stat('lease', lease),
      stat('version', sharing.version === null ? 'unknown' : String(sharing.version)),
      stat('behind', sharing.lag === null ? 'unknown' : `${sharing.lag}`),
      stat('database read', sharing.syncedAt === null ? 'never' : ago(sharing.syncedAt, now)),
      stat('key this minute', sharing.budget === null ? 'unknown' : String(sharing.budget.minute)),
      stat('key today', sharing.budget === null ? 'unknown' : String(sharing.budget.day)),
    ),
    !sharing.complete &&
      sharing.on &&
      h('p', { class: 'dim' }, 'the shared roster is not complete yet: joins are looked up'),
  ];
}

/** Each license several members claim, and the membership that decides. */
export function claimParts(claims: PanelStatus['claimedLicenses']): Parts {
  return [
    h('p', { class: 'dim' }, 'The most recent membership decides for each license.'),
    h(
      'div',
      { class: 'scroll' },
      table(
        ['license', 'decides', 'also claimed by'],
        claims.licenses.map((c) => [
          c.license ?? '—',
          c.deciding,
          `${c.memberIds.filter((id) => id !== c.deciding).join(', ')}${c.members > c.memberIds.length ? ` and ${c.members - c.memberIds.length} more` : ''}`,
        ]),
      ),
    ),
    claims.more &&
      h('p', { class: 'warn' }, 'More licenses were claimed by several members than are listed.'),
  ];
}

/** The players online, one row a player, those matching `query` (lower case) when one is typed. */
export function playerParts(s: PanelStatus, query: string): Parts {
  const rows = s.players.online.filter((p) => {
    if (!query) return true;
    const text = [
      p.id,
      p.name,
      p.member,
      p.status,
      ...p.departments.flatMap((d) => [d.name, d.rank, d.callsign]),
    ]
      .join(' ')
      .toLowerCase();
    return text.includes(query);
  });
  return [
    h(
      'p',
      { class: 'dim' },
      `${s.players.onlineCount} online, ${s.players.connectingCount} connecting${query ? `; ${rows.length} match` : ''}`,
    ),
    h(
      'div',
      { class: 'scroll' },
      table(
        ['id', 'player', 'member', 'status', 'department', 'rank', 'callsign', 'hours (7 d)', 'job'],
        // One row a player: a member's further departments are further lines in the department,
        // rank and callsign cells, not rows of their own.
        rows.map((p) => {
          const each = (pick: (d: (typeof p.departments)[number]) => string) =>
            lines(p.departments.length > 0 ? p.departments.map(pick) : ['—']);
          return [
            p.id,
            p.name,
            p.member ?? (p.loaded ? 'not on the roster' : 'loading…'),
            p.status ?? '—',
            each((d) => `${d.primary ? '★ ' : ''}${d.name}`),
            each((d) => d.rank ?? '—'),
            each((d) => d.callsign ?? '—'),
            p.hours7 !== null ? p.hours7.toFixed(1) : '—',
            p.job ? `${p.job.job} ${p.job.grade}` : '—',
          ];
        }),
      ),
    ),
  ];
}
