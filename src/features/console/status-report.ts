import type { LimiterState } from '../../http';
import type { MemberCache } from '../../roster/member-cache';
import type { Member } from '../../roster/model';
import type { PlayerRegistry } from '../../roster/player-registry';
import type { RosterErrors } from '../../roster/roster-errors';

/** `<prefix>_<id>_…`: enough for an owner to tell keys apart, never the secret. */
export function maskKey(key: string): string {
  const [prefix, id] = key.split('_');
  return prefix && id ? `${prefix}_${id}_…` : '(set)';
}

export interface StatusInputs {
  apiKey: string;
  community: string | null;
  cache: MemberCache;
  limiter: LimiterState;
  errors: RosterErrors;
  players: PlayerRegistry;
  now: number;
}

export function statusLines(inputs: StatusInputs): string[] {
  const { cache, limiter, errors, players, now } = inputs;
  const stats = cache.stats();
  let loaded = 0;
  for (const [, entry] of players.onlinePlayers()) if (entry.view !== undefined) loaded++;
  const paused = limiter.pausedUntil !== null && limiter.pausedUntil > now;
  return [
    `key ${maskKey(inputs.apiKey)}; community ${inputs.community === null ? 'not verified yet' : `"${inputs.community}"`}`,
    `cache: ${stats.size} entries, hit rate ${(stats.hitRate * 100).toFixed(0)}% (${stats.hits} hits, ${stats.misses} misses)`,
    `rate limit: ${limiter.remainingThisMinute}/${limiter.perMinute} left this minute` +
      (limiter.remainingToday === null ? '' : `, ${limiter.remainingToday}/${limiter.perDay} today`) +
      (paused ? `; paused for ${Math.ceil((limiter.pausedUntil! - now) / 1000)}s after a 429` : '') +
      `; queued join ${limiter.queued.join}, rank changes ${limiter.queued.write}, refresh ${limiter.queued.refresh}, background ${limiter.queued.background}`,
    `last error: ${errors.last ? `${errors.last.message} (${Math.round((now - errors.last.at) / 1000)}s ago)` : 'none'}`,
    `players: ${loaded}/${players.onlineCount} online loaded, ${players.connectingCount} connecting`,
  ];
}

export function memberLines(member: Member | null, label: string): string[] {
  if (member === null) return [`${label}: not on the roster`];
  const lines = [`${label}: ${member.name} (${member.id}), status ${member.status}`];
  for (const d of member.departments) {
    lines.push(
      `  ${d.primary ? '*' : ' '} ${d.shortName ?? d.name}: ${d.rank ? `${d.rank.name} (${d.rank.position})` : 'no rank'}${d.callsign ? `, callsign ${d.callsign}` : ''}`,
    );
  }
  return lines;
}
