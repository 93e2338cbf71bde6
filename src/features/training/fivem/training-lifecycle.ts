import { fx } from '../../../platform/natives';
import type { TrainingService } from '../training-service';
import { discordOf } from './discord-identifier';

/** Keeps training data per final server id: loaded on playerJoining, forgotten on playerDropped. */
export function attachTrainingLifecycle(service: TrainingService): void {
  fx.on('playerJoining', () => {
    // `source` is only valid during the synchronous part of the handler: copy it first.
    const src = String(fx.source);
    const discordId = discordOf(src);
    const name = fx.GetPlayerName(src) ?? '';
    // Not inside this handler: announcing emits an event, and a nested emit resets `source` for
    // the handlers of other modules that run after this one.
    void Promise.resolve().then(() => service.addPlayer(src, discordId, name));
  });
  fx.on('playerDropped', () => {
    service.dropPlayer(String(fx.source));
  });
}

/** After a restart with players online: loads every connected player. */
export function loadOnlineTrainingPlayers(service: TrainingService): void {
  for (const id of fx.getPlayers()) {
    const src = String(id);
    void service.addPlayer(src, discordOf(src), fx.GetPlayerName(src) ?? '');
  }
}
