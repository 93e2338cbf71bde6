import { mirrorReportSummary } from '../mirror/mirror-lines';
import type { MirrorReport } from '../mirror/mirror-state';
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
