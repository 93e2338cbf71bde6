import { mirrorReportSummary } from '../mirror/mirror-lines';
import type { MirrorReport } from '../mirror/mirror-state';
import { shareSummary } from '../share/share-lines';
import type { ShareReport } from '../share/share-report';
import type { PanelStatus } from './panel-status-shape';

/** The mirror's row of `status.json`: what `roster status` says, as data. */
export function panelMirror(report: MirrorReport | null): PanelStatus['mirror'] {
  if (report === null) return null;
  return {
    state: report.state.kind,
    summary: mirrorReportSummary(report),
    deciding: report.deciding,
    gaps: report.gaps,
    lastGap: report.lastGap,
    clockSkew: report.clockSkew,
    held: report.held,
    lastFullReadAt: report.lastFullReadAt,
    lastAuditCatchUpAt: report.auditReadAt,
    caughtUpFromSnapshot: report.caughtUp,
    requestsToday: report.requestsToday,
    lastReadFailure: report.failure,
  };
}

/** The shared roster's row of `status.json`: what `roster status` says of sharing, as data. */
export function panelSharing(report: ShareReport | null): PanelStatus['sharing'] {
  if (report === null) return null;
  return {
    on: report.on,
    role: report.role,
    summary: shareSummary(report),
    server: report.server,
    reader: report.reader,
    leaseLeftMs: report.leaseLeftMs,
    version: report.version,
    lag: report.lag,
    syncedAt: report.syncedAt,
    complete: report.complete,
    budget: report.budget,
  };
}
