import { describe, expect, it } from 'vitest';
import { mirrorDoctorLine, mirrorStatusLine, mirrorSummary } from '../../../src/features/mirror/mirror-lines';
import type { MirrorReport } from '../../../src/features/mirror/mirror-state';

const NOW = Date.UTC(2025, 5, 2, 12, 10, 0);
const report = (over: Partial<MirrorReport>): MirrorReport => ({
  state: { kind: 'up' },
  held: 1000,
  lastFullReadAt: NOW - 2 * 3_600_000,
  requestsToday: 3,
  failure: null,
  caughtUp: null,
  auditReadAt: NOW - 20_000,
  deciding: true,
  gaps: 0,
  lastGap: null,
  clockSkew: null,
  ...over,
});

describe('the mirror in roster status, roster doctor and the panel', () => {
  it('up after a restart: caught up from the snapshot, when and in how many audit reads', () => {
    const caught = report({ caughtUp: { at: Date.UTC(2025, 5, 2, 12, 3, 4), reads: 1 } });
    expect(mirrorStatusLine(caught, NOW)).toBe(
      'mirror: 1000 members held, last full read 2 h 0 min ago; last audit catch-up 20 s ago, caught up from snapshot at 12:03:04 UTC (1 audit read); 3 request(s) today',
    );
    expect(mirrorDoctorLine(caught, NOW)).toMatch(
      /^✓ mirror holds 1000 members, .*caught up from snapshot at 12:03:04 UTC/,
    );
    expect(mirrorStatusLine(report({ auditReadAt: null }), NOW)).toMatch(/last audit catch-up not yet;/);
  });

  it('catching up: joins looked up until it completes', () => {
    const line = mirrorStatusLine(
      report({ state: { kind: 'catching-up', from: 'snapshot' }, auditReadAt: null }),
      NOW,
    );
    expect(line).toBe(
      'mirror: 1000 members from the snapshot, last full read 2 h 0 min ago; catching up on the audit log, joins looked up until it completes; 3 request(s) today',
    );
    expect(mirrorDoctorLine(report({ state: { kind: 'catching-up', from: 'snapshot' } }), NOW)).toMatch(
      /^… mirror: .*catching up/,
    );
    expect(mirrorSummary({ kind: 'catching-up', from: 'snapshot' })).toMatch(
      /^catching up on the audit log since the snapshot/,
    );
  });

  it('catching up after taking over from another server: says so, not "the snapshot"', () => {
    const taken = report({ state: { kind: 'catching-up', from: 'shared roster' }, auditReadAt: null });
    expect(mirrorStatusLine(taken, NOW)).toMatch(/^mirror: 1000 members from the shared roster, /);
    expect(mirrorDoctorLine(taken, NOW)).toMatch(/^… mirror: 1000 members from the shared roster /);
    expect(mirrorSummary({ kind: 'catching-up', from: 'shared roster' })).toMatch(/since the shared roster:/);
  });

  it('stale: the outage policy only, and why', () => {
    const stale = report({ state: { kind: 'stale', why: 'saved out of step with the audit log' } });
    expect(mirrorStatusLine(stale, NOW)).toMatch(
      /^mirror: stale snapshot: outage policy only \(saved out of step with the audit log\); 1000 members held/,
    );
    expect(mirrorDoctorLine(stale, NOW)).toMatch(
      /^! mirror: stale snapshot, outage policy only \(saved out of step with the audit log\): its 1000 members serve gate\.onError "cached"/,
    );
  });

  it('a gap in the audit log: while open, joins are looked up until the full read begun after it completes; then how it ended', () => {
    const open = report({
      deciding: false,
      gaps: 1,
      lastGap: { at: NOW - 90_000, reason: 'more than 20000 entries behind', rereadAt: null },
    });
    expect(mirrorDoctorLine(open, NOW)).toBe(
      '! mirror holds 1000 members, but a gap in the audit log 90 s ago (more than 20000 entries behind): not deciding until the full read begun after it completes: joins are looked up one by one until then.',
    );
    expect(mirrorStatusLine(open, NOW)).toMatch(/a gap in the audit log 90 s ago .*: not deciding until/);
    const ended = report({
      gaps: 2,
      lastGap: { at: NOW - 600_000, reason: 'an entry too deep to read', rereadAt: NOW - 540_000 },
    });
    expect(mirrorDoctorLine(ended, NOW)).toMatch(
      /^✓ mirror holds 1000 members, .*last gap in the audit log 10 min ago \(an entry too deep to read\) \(2 gaps this run\), ended by a full read 60 s later: members' joins are decided without a request\.$/,
    );
    // Up, no gap, but the audit log lags: not deciding either.
    expect(mirrorDoctorLine(report({ deciding: false }), NOW)).toMatch(
      /^! mirror holds 1000 members, .*has not been read to its end lately/,
    );
  });
});
