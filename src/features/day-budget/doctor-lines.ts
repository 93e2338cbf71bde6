import { DEFAULT_DAY_RESERVE, type KeyOutlook } from '../../http';

/** Above this share of the day, the background work stops before the day ends. */
const CLOSE = 1 - DEFAULT_DAY_RESERVE.background;

/**
 * The `roster doctor` lines on the key's day: what this server costs a day and why, and, when the
 * service's counts show other servers on the key, how many servers' worth it carries and when the
 * day would run out at that pace.
 */
export function dailyBudgetLines(outlook: KeyOutlook, now: number): string[] {
  const { cost, ceiling, keyPerDay, serversWorth } = outlook;
  const own = `this server spends about ${integer(cost.total)} requests a day (${parts(outlook)})`;
  const shared =
    serversWorth > 1
      ? `; the service's counts show other servers on this key: it carries about ${serversWorth.toFixed(1)} servers' worth, about ${integer(keyPerDay)} a day`
      : '';
  if (ceiling === null) return [`✓ daily budget: ${own}${shared}; the key has no daily ceiling.`];
  const share = `${percent(keyPerDay / ceiling)} of the key's ${integer(ceiling)}`;
  const lines: string[] = [];
  const used =
    outlook.usedToday === null
      ? ''
      : `; ${integer(outlook.usedToday)} used today (${outlook.fromService ? "the service's count" : 'counted here, the other servers as their minute windows showed them'})`;
  if (outlook.runsOutAt !== null) {
    const end =
      outlook.runsOutAt - now < 60_000
        ? `The key's day is all but spent, ${span(outlook.dayEndsAt - now)} before it resets.`
        : `At that pace the key's day runs out at about ${clock(outlook.runsOutAt)} UTC (in ${span(outlook.runsOutAt - now)}), ${span(outlook.dayEndsAt - outlook.runsOutAt)} before it resets.`;
    lines.push(`✗ daily budget: ${own}${shared}: ${share}${used}. ${end}`);
  } else if (keyPerDay > ceiling) {
    lines.push(
      `✗ daily budget: ${own}${shared}: ${share}${used}; the servers on this key would exceed the day.`,
    );
  } else if (keyPerDay > ceiling * CLOSE) {
    lines.push(`! daily budget: ${own}${shared}: ${share}${used}; close to the day.`);
  } else {
    lines.push(`✓ daily budget: ${own}${shared}: ${share}${used}.`);
    return lines;
  }
  lines.push(
    `  As the day runs low, background reads (the mirror's full re-reads, new members) stop with ${percent(DEFAULT_DAY_RESERVE.background)} of it left, the audit log and refreshes with ${percent(DEFAULT_DAY_RESERVE.refresh)}, so joins keep the rest. Fewer servers on this key, a key of its own for each server (each key has its own day), or a longer mirror.resyncMinutes or refresh.auditSeconds keep it within the day.`,
  );
  return lines;
}

function parts(outlook: KeyOutlook): string {
  const { cost } = outlook;
  const named: string[] = [];
  if (cost.audit > 0) named.push(`audit log ${integer(cost.audit)}`);
  if (cost.fullReads > 0) named.push(`full re-reads ${integer(cost.fullReads)}`);
  named.push(`departments and ranks ${integer(cost.catalog)}`);
  if (cost.refreshes > 0) named.push(`refreshes ${integer(cost.refreshes)}`);
  if (cost.duty > 0) named.push(`duty hours ${integer(cost.duty)}`);
  named.push(
    cost.measured === null
      ? 'joins and changes not counted long enough yet'
      : `joins and changes ${integer(cost.measured)} at the pace of the last ${span(cost.measuredOverMs)}`,
  );
  return named.join(', ');
}

function integer(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function percent(fraction: number): string {
  return `${Math.round(fraction * 100)} %`;
}

/** "19:40". */
function clock(at: number): string {
  return new Date(at).toISOString().slice(11, 16);
}

/** "45 min", "3 h 5 min". */
function span(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
