/**
 * What the other servers on the key spent, when they share their counts (through a database the
 * transport knows nothing of): requests in the current minute and today. Null while not known;
 * then each server keeps to its own share as the service's headers show it.
 */
export type FleetUsage = () => { minute: number; day: number } | null;
