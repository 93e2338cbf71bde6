import { Handle } from '../../kernel/handle';

/** What the other features ask the duty hours feature (the panel's hours column). */
export interface DutyHoursHandle {
  /** An online player's hours on duty in the last `days`; null when unknown. */
  hours(src: string, days: number): number | null;
}

/** Provided by the duty hours feature when attached; null when it is not. */
export const dutyHoursHandle = new Handle<DutyHoursHandle>('duty hours');
