/** What other resources and the player's state bag see of a player's training. */
export interface Training {
  linked: boolean;
  /** Completed listed courses, oldest first; unlisted courses never appear. */
  completions: TrainingCompletion[];
}

export interface TrainingCompletion {
  courseId: string;
  title: string;
  completedAt: string;
}

/** `assignCourse` always resolves to one of these. */
export type Enrollment = { enrolled: true; created: boolean } | { enrolled: false; reason: string };
