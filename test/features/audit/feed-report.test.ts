import { describe, expect, it } from 'vitest';
import type { AuditFeedState } from '../../../src/features/audit/audit-feed';
import { feedLines } from '../../../src/features/audit/feed-report';

const NOW = 1_000_000;
const reading: AuditFeedState = {
  running: true,
  healthy: true,
  failing: false,
  behind: false,
  caughtUpAt: NOW - 20_000,
  gaps: 0,
  lastGap: null,
  skew: null,
};

describe('feedLines', () => {
  it('says the feed reads on time only when it does', () => {
    expect(feedLines(reading, NOW, 300)).toEqual([
      '✓ audit feed: reading; it reached the end of the audit log 20 s ago.',
    ]);
  });

  it('says when it is behind a backlog, failing, stopped or not started, with the refresh that covers meanwhile', () => {
    const behind = feedLines(
      { ...reading, healthy: false, behind: true, caughtUpAt: NOW - 400_000 },
      NOW,
      300,
    );
    expect(behind[0]).toMatch(/^! audit feed: behind, .* 400 s ago; the refresh every 300 s/);
    expect(feedLines({ ...reading, healthy: false, failing: true }, NOW, 300)[0]).toMatch(
      /^! audit feed: reading the audit log fails/,
    );
    expect(feedLines({ ...reading, running: false, healthy: false }, NOW, 300)[0]).toMatch(
      /^! audit feed: stopped/,
    );
    expect(feedLines({ ...reading, healthy: false, caughtUpAt: null }, NOW, 300)[0]).toMatch(/starting/);
  });

  it('tells the gaps it could not read, and the last one', () => {
    const lines = feedLines(
      { ...reading, gaps: 2, lastGap: { reason: 'more than 2000 entries stamped x', at: NOW - 5_000 } },
      NOW,
      300,
    );
    expect(lines[1]).toBe(
      '! audit feed: 2 gaps since start, the last 5 s ago (more than 2000 entries stamped x); the members this server holds were read again.',
    );
  });

  it('names the entries stamped ahead of the service clock: how many, the last, how far ahead and when', () => {
    const lines = feedLines(
      {
        ...reading,
        skew: { entries: 2, last: { entry: 'aud_000123', aheadMs: 3_540_000, at: NOW - 12_000 } },
      },
      NOW,
      300,
    );
    expect(lines[1]).toBe(
      "! audit feed: 2 entries stamped ahead of the service's clock since start, the last (aud_000123) 59 min ahead, seen 12 s ago; acted on, but the log is still read from the service's time (its Date header).",
    );
  });
});
