import type { MirrorOff, MirrorReport } from './mirror-state';

/** The `roster status` line: members held, age of the last full read, requests spent today. */
export function mirrorStatusLine(report: MirrorReport, now: number): string {
  const { state } = report;
  const today = `${report.requestsToday} request(s) today`;
  const failing = report.failure === null ? '' : `; last read failed: ${report.failure}`;
  switch (state.kind) {
    case 'waiting':
      return 'mirror: waiting for the key check';
    case 'reading':
      return `mirror: first read under way, joins looked up until it completes; ${today}${failing}`;
    case 'up':
      return `mirror: ${report.held} members held, last full read ${age(report.lastFullReadAt, now)} ago; ${today}${failing}`;
    case 'off':
      return `mirror: off (${offReason(state)}); ${today}`;
  }
}

/** The `roster doctor` line. */
export function mirrorDoctorLine(report: MirrorReport, now: number): string {
  const { state } = report;
  switch (state.kind) {
    case 'waiting':
      return '! mirror: waiting for the key check; joins are looked up one by one meanwhile.';
    case 'reading':
      return report.failure === null
        ? '! mirror: the first read of the roster is under way; until it completes joins are looked up one by one.'
        : `✗ mirror: the roster could not be read (${report.failure}); joins are looked up one by one, and it is tried again.`;
    case 'up':
      return `✓ mirror holds ${report.held} members, last full read ${age(report.lastFullReadAt, now)} ago: members' joins are decided without a request.`;
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

/** "45 s", "12 min", "3 h 5 min". */
function age(at: number | null, now: number): string {
  if (at === null) return 'never';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
