import { type Fx, fx } from '../../../platform/natives';

/** The FXServer globals the training side uses beyond `src/platform/natives.ts`. */
export interface TrainingFx extends Fx {
  /** Sends a client event to one player (`-1` for everyone). */
  emitNet(event: string, target: number | string, ...args: unknown[]): void;
}

export const trainingFx = fx as TrainingFx;

/** Shows a line in the player's chat, from "Training". */
export function tellPlayer(src: string, text: string): void {
  trainingFx.emitNet('chat:addMessage', Number(src), { args: ['Training', text] });
}
