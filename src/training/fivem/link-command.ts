import type { Logger } from '../../core/ports';
import { fx } from '../../fivem/natives';
import { trainingMessages as say } from '../training-messages';
import type { TrainingService } from '../training-service';
import { discordOf } from './discord-identifier';
import { tellPlayer } from './training-natives';

/** Tells the player how to link their academy account, or that it is already linked. */
export async function linkAnswer(service: TrainingService, src: string, name: string): Promise<string> {
  const discordId = discordOf(src);
  if (discordId === null) return say.noDiscord;
  const known = service.knownLink(discordId);
  if (known?.linked) return say.alreadyLinked;
  const reply = await service.api.requestLink(discordId, name || discordId, { lane: 'refresh' });
  if (reply.alreadyLinked) {
    service.rememberLink(discordId, { linked: true, userSub: reply.userSub });
    return say.alreadyLinked;
  }
  return say.linkInGame(say.linkCode(reply.code, reply.confirmUrl, reply.expiresAt));
}

/** `/linktraining`: any player may use it; the answer goes to their chat. */
export function registerLinkCommand(service: TrainingService, logger: Logger): void {
  // One request per player at a time: asking again while it runs shares its answer.
  const asking = new Map<string, Promise<string>>();
  fx.RegisterCommand(
    'linktraining',
    (src) => {
      const id = String(src);
      if (!(Number(src) > 0)) {
        console.log('/linktraining is for players in the game.');
        return;
      }
      let answer = asking.get(id);
      if (!answer) {
        answer = linkAnswer(service, id, fx.GetPlayerName(id) ?? '').finally(() => asking.delete(id));
        asking.set(id, answer);
      }
      answer.then(
        (text) => tellPlayer(id, text),
        (error: unknown) => {
          logger.warn(`training: /linktraining for player ${id} failed: ${(error as Error)?.message}`);
          tellPlayer(id, say.linkFailed);
        },
      );
    },
    false,
  );
}
