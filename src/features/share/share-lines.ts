import type { ShareReport } from './share-report';

const seconds = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;

/** Who reads, for how long still, and how far this server's copy is behind. */
function where(report: ShareReport, now: number): string {
  const lease =
    report.leaseLeftMs === null ? 'no lease running' : `lease ${seconds(report.leaseLeftMs)} left`;
  const reader =
    report.reader === null
      ? 'no reader'
      : `reader ${report.role === 'reader' ? `${report.reader} (this server)` : report.reader}`;
  const synced = report.syncedAt === null ? 'never read' : `read ${seconds(now - report.syncedAt)} ago`;
  const version =
    report.version === null
      ? ''
      : `, version ${report.version}, this server ${report.lag ?? 0} behind (${synced})`;
  const budget = report.budget
    ? `; the key's shared budget: ${report.budget.minute} this minute, ${report.budget.day} today`
    : '';
  return `${reader}, ${lease}${version}${report.complete ? ', complete' : ', not complete'}${budget}`;
}

/** Sharing in a few words, for the panel. */
export function shareSummary(report: ShareReport): string {
  if (report.role === 'starting') return `connecting to the database as ${report.server}`;
  if (!report.on) return `off for this server (${report.off ?? 'not connected'}): it reads the roster alone`;
  return report.role === 'reader'
    ? `on: ${report.server} reads the roster for the other servers`
    : `on: ${report.server} follows the roster ${report.reader ?? 'another server'} reads`;
}

/** The `roster status` line. */
export function shareStatusLine(report: ShareReport, now: number): string {
  if (report.role === 'starting') return `sharing: connecting to the database as ${report.server}`;
  if (!report.on)
    return `sharing: off for this server (${report.off ?? 'not connected'}); it reads the roster alone`;
  return `sharing: on as ${report.server}, ${report.role}; ${where(report, now)}`;
}

/** The `roster doctor` line: ✗ while this server cannot share, though the owner asked it to. */
export function shareDoctorLine(report: ShareReport, now: number): string {
  if (report.role === 'starting') return `⚠ sharing: connecting to the database as ${report.server}.`;
  if (!report.on)
    return `✗ sharing: share.enabled is true but this server cannot share the roster (${report.off ?? 'not connected'}): it reads the roster alone, as without sharing.`;
  const pending = report.pending > 0 ? `; ${report.pending} change(s) waiting to be written` : '';
  return `✓ sharing: on as ${report.server}, ${report.role === 'reader' ? 'reading the roster for the others' : 'following the shared roster'}; ${where(report, now)}${pending}.`;
}
