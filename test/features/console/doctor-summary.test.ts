import { describe, expect, it } from 'vitest';
import { doctorSummary } from '../../../src/features/console/doctor-summary';

describe("roster doctor's summary line", () => {
  it('says all checks passed when nothing is marked ✗ or !', () => {
    expect(
      doctorSummary([
        '✓ key works; community "San Andreas Roleplay"; plan active; this server\'s address is allowed.',
        '✓ departments read: 7; ranks: 42.',
        '  Rank ladders, most senior first (ranks.order = top-down):',
        '… audit feed: starting (first read not done yet).',
        'training: training checks are off (training.enabled is false).',
      ]),
    ).toBe('doctor: all checks passed.');
  });

  it('names each check that needs attention once, in order, then those worth a look', () => {
    expect(
      doctorSummary([
        '✓ key works; community "A"; plan active; this server\'s address is allowed.',
        '✗ scopes: the key lacks 2 scopes the resource uses; add them …:',
        '  ✗ departments:read (department and rank names): …',
        '  ! audit:read (the roster mirror and the change feed): …',
        '! API description confirms 5 of 6 assumptions.',
        '✗ departments: The roster API key lacks the scope departments:read …',
        '✗ permissions: FXServer does not let this resource change principals, so none are granted. Add to server.cfg:',
        '! mirror off: the key lacks audit:read, which keeps it current; …',
        '! mirror holds 200 members, but the audit log has not been read to its end lately: …',
        '! queue.priority[0] (LSPD, Sergeant): no department "LSPDD"; left out.',
        '! licenses claimed by several members: 2; the most recent membership decides for each.',
        'training: ✗ the learning service did not answer within 15 s.',
        '! config: gate.requireStatus is empty, …',
        "! config: rateLimit is above the service's documented ceiling …",
      ]),
    ).toBe(
      'doctor: 4 checks need attention (✗): scopes, departments, permissions, training; 6 worth a look (!): API description, mirror off, mirror, queue, licenses, config.',
    );
  });

  it('says one check and counts what is worth a look without failing', () => {
    expect(doctorSummary(['✗ key: The roster API key was refused.', '  Nothing else can be checked.'])).toBe(
      'doctor: 1 check needs attention (✗): key.',
    );
    expect(doctorSummary(['! duty hours: the key lacks timelogs:read …', '✓ jobs: framework qbx'])).toBe(
      'doctor: all checks passed; 1 worth a look (!): duty hours.',
    );
  });
});
