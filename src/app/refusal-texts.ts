import type { Config } from '../core/config';
import { formatMessage } from '../core/gate/messages';
import type { RefusalTexts } from '../panel/join-reason';

/** The refusal messages as the gate formats them for this player, to tell roster refusals apart. */
export function refusalTexts(config: Config, player: string, community: string): RefusalTexts {
  const { messages } = config.gate;
  const values = { player, community };
  return {
    notOnRoster: formatMessage(messages.notOnRoster, values),
    notInDepartment: formatMessage(messages.notInDepartment, values),
    unavailable: formatMessage(messages.unavailable, values),
  };
}
