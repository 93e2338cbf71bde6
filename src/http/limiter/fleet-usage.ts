/**
 * What the other servers on the key spent, when they share their counts (through a database the
 * transport knows nothing of): requests in the last minute and today, and each of those servers'
 * part of the minute. Null while not known; then each server keeps to its own share as the
 * service's headers show it.
 */
export type FleetUsage = () => OthersUsage | null;

export interface OthersUsage {
  /** The other servers' requests in the last minute. */
  minute: number;
  /** Their requests today. */
  day: number;
  /**
   * Each other server that sent within the last minute. Absent when the counts do not say who
   * sent; the key's minute is then kept as a whole, without fair parts.
   */
  servers?: readonly OtherServer[];
}

export interface OtherServer {
  /** Its requests in the last minute. */
  minute: number;
  /** It sent within the last few seconds: it is sending now, not only earlier in the minute. */
  recent: boolean;
}
