import { fx } from '../../../platform/natives';
import type { FrameworkName } from '../framework-port';
import { field } from './framework-calls';

export interface FrameworkListener {
  loaded(src: string): void;
  unloaded(src: string): void;
  jobChanged(src: string): void;
}

type Kind = keyof FrameworkListener;
/** Where an event's player is: its first argument, or the `source` of the character table in it. */
type From = 'src' | 'PlayerData.source' | 'source';

/**
 * The server events of each framework that matter to job sync (read from their sources): a
 * character loaded, logged out or dropped, and its job changed (fired for our own writes too:
 * job sync compares before it writes, so they end there).
 */
const EVENTS: readonly [FrameworkName[], string, Kind, From][] = [
  [['qbx', 'qb'], 'QBCore:Server:PlayerLoaded', 'loaded', 'PlayerData.source'],
  [['qbx', 'qb'], 'QBCore:Server:OnPlayerUnload', 'unloaded', 'src'],
  [['qbx', 'qb'], 'QBCore:Server:OnJobUpdate', 'jobChanged', 'src'],
  // Qbox: removing a primary job fires only this one, which does not say job or gang.
  [['qbx'], 'qbx_core:server:onGroupUpdate', 'jobChanged', 'src'],
  [['esx'], 'esx:playerLoaded', 'loaded', 'src'],
  [['esx'], 'esx:playerDropped', 'unloaded', 'src'],
  [['esx'], 'esx:setJob', 'jobChanged', 'src'],
  [['ox'], 'ox:playerLoaded', 'loaded', 'src'],
  [['ox'], 'ox:playerLogout', 'unloaded', 'src'],
  [['ox'], 'ox:setGroup', 'jobChanged', 'src'],
  [['nd'], 'ND:characterLoaded', 'loaded', 'source'],
  [['nd'], 'ND:characterUnloaded', 'unloaded', 'src'],
  [['nd'], 'ND:updateCharacter', 'jobChanged', 'source'],
  [['nd'], 'ND:groupRemoved', 'jobChanged', 'source'],
  // ND: addGroup with the job flag but not through setJob fires only this one.
  [['nd'], 'ND:groupAdded', 'jobChanged', 'source'],
];

/** Listens to every framework's events once; each reaches `listener` while its framework is in use. */
export function listenToFrameworks(active: () => FrameworkName | null, listener: FrameworkListener): void {
  for (const [names, event, kind, from] of EVENTS) {
    fx.on(event, (first: unknown, second: unknown) => {
      const name = active();
      if (!name || !names.includes(name)) return;
      // ND's updateCharacter also fires for money, metadata…: only a job or groups change counts.
      if (event === 'ND:updateCharacter' && second !== 'job' && second !== 'groups') return;
      const src =
        from === 'src'
          ? first
          : from === 'source'
            ? field(first, 'source')
            : field(first, 'PlayerData', 'source');
      if (typeof src === 'number' || (typeof src === 'string' && src !== '')) listener[kind](String(src));
    });
  }
}
