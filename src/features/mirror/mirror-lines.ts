import { aheadText } from '../audit/stamp-skew';
import type { MirrorOff, MirrorReport, MirrorState } from './mirror-state';

/** The state in a few words (the panel's mirror row). */
export function mirrorSummary(state: MirrorState): string {
  switch (state.kind) {
    case 'waiting':
      return 'waiting for the key check';
    case 'reading':
      return 'first read under way: joins are looked up until it completes';
    case 'catching-up':
      return `catching up on the audit log since the ${state.from}: joins are looked up until it completes`;
    case 'stale':
      return `stale snapshot: outage policy only (${state.why}), until a full read completes`;
    case 'up':
      return "members' joins are decided without a request";
    case 'off':
      return `off: ${offReason(state)}`;
  }
}

/**
 * The `roster status` line: members held, age of the last full read, the last audit catch-up,
 * requests spent today, and how it came back after a restart.
 */
export function mirrorStatusLine(report: MirrorReport, now: number): string {
  const { state, held } = report;
  if (report.followingShared && state.kind !== 'waiting')
    return `mirror: ${held} members held, following the shared roster another server reads; ${report.deciding ? "members' joins decided without a request" : 'joins looked up until it is complete and current'}`;
  const today = `${report.requestsToday} request(s) today`;
  const failing = report.failure === null ? '' : `; last read failed: ${report.failure}`;
  const fullRead = `last full read ${age(report.lastFullReadAt, now)} ago`;
  switch (state.kind) {
    case 'waiting':
      return 'mirror: waiting for the key check';
    case 'reading':
      return `mirror: first read under way, joins looked up until it completes; ${today}${failing}`;
    case 'catching-up':
      return `mirror: ${held} members from the ${state.from}, ${fullRead}; catching up on the audit log, joins looked up until it completes; ${today}`;
    case 'stale':
      return `mirror: stale snapshot: outage policy only (${state.why}); ${held} members held, ${fullRead}, joins looked up until a full read completes; ${today}${failing}`;
    case 'up':
      return `mirror: ${held} members held, ${fullRead}; last audit catch-up ${report.auditReadAt === null ? 'not yet' : `${age(report.auditReadAt, now)} ago`}${caughtUp(report)}${gapWords(report, now)}${lagging(report)}${skewWords(report, now)}; ${today}${failing}`;
    case 'off':
      return `mirror: off (${offReason(state)}); ${today}`;
  }
}

/** The `roster doctor` line. */
export function mirrorDoctorLine(report: MirrorReport, now: number): string {
  const { state } = report;
  if (report.followingShared && state.kind !== 'waiting')
    return report.deciding
      ? `✓ mirror holds ${report.held} members, following the shared roster another server reads: members' joins are decided without a request.`
      : `! mirror: following the shared roster (${report.held} members held), which is not complete or not current: joins are looked up one by one until it is.`;
  switch (state.kind) {
    case 'waiting':
      return '! mirror: waiting for the key check; joins are looked up one by one meanwhile.';
    case 'reading':
      return report.failure === null
        ? '! mirror: the first read of the roster is under way; until it completes joins are looked up one by one.'
        : `✗ mirror: the roster could not be read (${report.failure}); joins are looked up one by one, and it is tried again.`;
    case 'catching-up':
      return `… mirror: ${report.held} members from the ${state.from} (last full read ${age(report.lastFullReadAt, now)} ago), catching up on the audit log since; joins are looked up one by one until it completes.`;
    case 'stale':
      return `! mirror: stale snapshot, outage policy only (${state.why}): its ${report.held} members serve gate.onError "cached" as last known records until a full read of the roster completes${report.failure === null ? '' : ` (the last read failed: ${report.failure})`}; joins are looked up one by one.`;
    case 'up': {
      const gap = gapWords(report, now);
      if (openGap(report))
        return `! mirror holds ${report.held} members, but${gap.slice(1)}: joins are looked up one by one until then.`;
      if (!report.deciding)
        return `! mirror holds ${report.held} members, last full read ${age(report.lastFullReadAt, now)} ago, but the audit log has not been read to its end lately: joins are looked up one by one until it is.`;
      return `✓ mirror holds ${report.held} members, last full read ${age(report.lastFullReadAt, now)} ago${caughtUp(report)}${gap}: members' joins are decided without a request.`;
    }
    case 'off':
      return `! mirror off: ${offReason(state)}; joins are looked up one by one.${offFix(state)}`;
  }
}

function offReason(off: MirrorOff): string {
  switch (off.why) {
    case 'disabled':
      return 'mirror.enabled is false';
    case 'no-audit-read':
      return 'the key lacks audit:read, which keeps it current';
    case 'audit-off':
      return 'refresh.auditSeconds is 0, and the audit log keeps it current';
    case 'too-large':
      return `the roster holds more than cache.maxEntries (${off.maxEntries}) members`;
  }
}

function offFix(off: MirrorOff): string {
  switch (off.why) {
    case 'disabled':
      return '';
    case 'no-audit-read':
      return ' Add audit:read to the key to decide members\u2019 joins without a request.';
    case 'audit-off':
      return ' Set refresh.auditSeconds above 0 to keep the roster on the server.';
    case 'too-large':
      return ' Raise cache.maxEntries to keep the whole roster on the server.';
  }
}

/** ", caught up from snapshot at 12:03:04 UTC (1 audit read)" when this run began so. */
function caughtUp(report: MirrorReport): string {
  const { caughtUp: done } = report;
  if (done === null) return '';
  const at = new Date(done.at).toISOString().slice(11, 19);
  return `, caught up from snapshot at ${at} UTC (${done.reads} audit read${done.reads === 1 ? '' : 's'})`;
}

/** The panel's words for the mirror: its state's, unless it holds the roster but does not decide from it. */
export function mirrorReportSummary(report: MirrorReport): string {
  if (report.followingShared && report.state.kind !== 'waiting')
    return report.deciding
      ? "following the shared roster: members' joins are decided without a request"
      : 'following the shared roster, not complete or not current: joins are looked up until it is';
  if (report.state.kind !== 'up' || report.deciding) return mirrorSummary(report.state);
  if (openGap(report))
    return `a gap in the audit log (${report.lastGap?.reason ?? 'entries lost'}): joins are looked up until the full read begun after it completes`;
  return 'the audit log has not been read to its end lately: joins are looked up until it is';
}

/** The last gap in the audit log: open (a full read begun after it under way), or how it ended. */
function gapWords(report: MirrorReport, now: number): string {
  const gap = report.lastGap;
  if (gap === null) return '';
  const count = report.gaps === 1 ? '' : ` (${report.gaps} gaps this run)`;
  if (gap.rereadAt === null)
    return `; a gap in the audit log ${age(gap.at, now)} ago (${gap.reason})${count}: not deciding until the full read begun after it completes`;
  return `; last gap in the audit log ${age(gap.at, now)} ago (${gap.reason})${count}, ended by a full read ${age(gap.at, gap.rereadAt)} later`;
}

/** Audit entries stamped ahead of the service's clock, when any were seen. */
function skewWords(report: MirrorReport, now: number): string {
  const skew = report.clockSkew;
  if (skew === null) return '';
  return `; ${skew.entries} audit entr${skew.entries === 1 ? 'y' : 'ies'} stamped ahead of the service's clock, the last (${skew.last.entry}) ${aheadText(skew.last.aheadMs)} ahead, ${age(skew.last.at, now)} ago`;
}

/** Up, no gap open, yet not deciding: the audit log lags. */
function lagging(report: MirrorReport): string {
  return report.deciding || openGap(report)
    ? ''
    : '; not deciding: the audit log has not been read to its end lately, joins are looked up until it is';
}

function openGap(report: MirrorReport): boolean {
  return report.lastGap !== null && report.lastGap.rereadAt === null;
}

/** "45 s", "12 min", "3 h 5 min". */
function age(at: number | null, now: number): string {
  if (at === null) return 'never';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
