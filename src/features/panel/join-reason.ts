import type { JoinDecision } from '../../kernel/join-decision';

/** A small, fixed set of reasons: metric labels must not grow with players or messages. */
export const JOIN_REASONS = [
  'member',
  'last-known',
  'policy',
  'bypass',
  'gate-off',
  'not-on-roster',
  'status',
  'department',
  'no-license',
  'not-configured',
  'unavailable',
  'timeout',
  'check',
  'other',
] as const;
export type JoinReason = (typeof JOIN_REASONS)[number];

/** The refusal messages the gate shows, as formatted for this player (to tell roster refusals apart). */
export interface RefusalTexts {
  notOnRoster: string;
  notInDepartment: string;
  unavailable: string;
}

/** Sorts a decision into one reason from the gate's note and the message the player saw. */
export function joinReason(decision: JoinDecision, texts: RefusalTexts): JoinReason {
  const { note, message } = decision;
  if (decision.admitted) {
    if (message !== undefined) return 'gate-off';
    if (note.startsWith('bypass ACE')) return 'bypass';
    if (note.includes('last-known')) return 'last-known';
    if (note.includes('policy') || note.includes(', allow')) return 'policy';
    if (note.startsWith('roster') || note.startsWith('admitted')) return 'member';
    return 'other';
  }
  if (note.startsWith('roster check not set up')) return 'not-configured';
  if (note.startsWith('no license')) return 'no-license';
  if (note.includes('further check refused')) return 'check';
  if (note.startsWith('no answer within') || note.includes('gave no answer')) return 'timeout';
  if (message === texts.unavailable) return 'unavailable';
  if (note.startsWith('roster') || note.includes('last-known')) {
    if (message === texts.notOnRoster) return 'not-on-roster';
    if (message === texts.notInDepartment) return 'department';
    return 'status';
  }
  return 'other';
}
