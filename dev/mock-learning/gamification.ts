import type { LearningStore } from './learning-store';
import type { Badge } from './records';

const XP_PER_COMPLETION = 150;
const XP_PER_LEVEL = 200;

export interface Gamification {
  xp: number;
  level: number;
  badges: Badge[];
}

/** Experience, level and badges, all derived from completions and certificates. */
export function gamificationOf(store: LearningStore, sub: string): Gamification {
  const done = store.data.completions.filter((c) => c.user_sub === sub);
  const xp = done.length * XP_PER_COMPLETION + (store.data.bonusXp.get(sub) ?? 0);
  const badges: Badge[] = [];
  const first = done[0];
  if (first) badges.push({ id: 'first-course', name: 'First Course', awarded_at: first.completed_at });
  const graduate = (title: string, id: string, name: string) => {
    const course = store.course(title);
    const hit = done.find((c) => c.course_id === course?.id);
    if (hit) badges.push({ id, name, awarded_at: hit.completed_at });
  };
  graduate('Police Academy', 'police-graduate', 'Police Academy Graduate');
  graduate('Fire Academy', 'fire-graduate', 'Fire Academy Graduate');
  const cert = store.data.certificates.find((c) => c.user_sub === sub && !c.revoked);
  if (cert) badges.push({ id: 'certified', name: 'Certified', awarded_at: cert.issued_at });
  return { xp, level: Math.floor(xp / XP_PER_LEVEL) + 1, badges };
}
