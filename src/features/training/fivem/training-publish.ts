import { fx } from '../../../platform/natives';
import type { Training } from '../training-model';
import type { TrainingEvents } from '../training-service';

/** Turns training changes into `roster:trainingUpdated` and the player's replicated `training` state bag. */
export const fivemTrainingEvents: TrainingEvents = {
  trainingUpdated(src: string, training: Training) {
    fx.Player(src).state.set('training', training, true);
    fx.emit('roster:trainingUpdated', Number(src), training);
  },
};
