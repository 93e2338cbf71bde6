import { LRUCache } from 'lru-cache';
import { errorMessage } from '../../../platform/error-message';
import { fx } from '../../../platform/natives';
import type { Clock, Logger } from '../../../platform/ports';
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
  if (service.linkCodes.mayBeConfirmed(discordId)) {
    const link = await service.lookupLink(discordId, 'refresh');
    if (link.linked) return say.alreadyLinked;
  }
  const reply = await service.linkCodes.request(discordId, name, 'refresh');
  if (reply.alreadyLinked) {
    service.rememberLink(discordId, { linked: true, userSub: reply.userSub });
    return say.alreadyLinked;
  }
  return say.linkInGame(say.linkCode(reply.code, reply.confirmUrl, reply.expiresAt));
}

/** A player is not told the same thing twice in this time, however often they run the command. */
export const LINK_ANSWER_COOLDOWN_MS = 10_000;

/** `/linktraining`: any player may use it; the answer goes to their chat. */
export function registerLinkCommand(service: TrainingService, logger: Logger, clock: Clock): void {
  // One request per player at a time: asking again while it runs shares its answer.
  const asking = new Map<string, Promise<string>>();
  // A macro must not flood the player's chat: the same answer is not repeated inside the window
  // (a new one, e.g. "linked" after they confirmed, still goes through).
  const answered = new LRUCache<string, string>({
    max: 4096,
    ttl: LINK_ANSWER_COOLDOWN_MS,
    perf: { now: () => clock.now() },
  });
  fx.RegisterCommand(
    'linktraining',
    (src) => {
      const id = String(src);
      if (!(Number(src) > 0)) {
        console.log('/linktraining is for players in the game.');
        return;
      }
      const reply = (text: string) => {
        if (answered.get(id) === text) return;
        answered.set(id, text);
        tellPlayer(id, text);
      };
      // A request that just failed is not tried again inside the window.
      if (answered.get(id) === say.linkFailed) return;
      let answer = asking.get(id);
      if (!answer) {
        answer = linkAnswer(service, id, fx.GetPlayerName(id) ?? '').finally(() => asking.delete(id));
        asking.set(id, answer);
      }
      answer.then(reply, (error: unknown) => {
        if (answered.get(id) !== say.linkFailed)
          logger.warn(`training: /linktraining for player ${id} failed: ${errorMessage(error)}`);
        reply(say.linkFailed);
      });
    },
    false,
  );
}
