import { matchKey } from '../../roster/catalog-index';
import type { LinkedCompletion } from './api/records';
import type { CourseIndex } from './course-index';
import type { Training, TrainingCompletion } from './training-model';

/**
 * A player's training as others see it: completions of listed courses only, one per course (the
 * latest), oldest first. A completion of a course not in the published list is left out too: it
 * cannot be shown to be listed.
 */
export function trainingOf(
  linked: boolean,
  completions: readonly LinkedCompletion[],
  courses: CourseIndex,
): Training {
  if (!linked) return { linked: false, completions: [] };
  const byCourse = new Map<string, TrainingCompletion>();
  for (const completion of completions) {
    const course = courses.find(completion.courseId);
    if (!course?.listed) continue;
    const previous = byCourse.get(course.id);
    if (previous && previous.completedAt >= completion.completedAt) continue;
    byCourse.set(course.id, {
      courseId: course.id,
      title: course.title,
      completedAt: completion.completedAt,
    });
  }
  return {
    linked: true,
    completions: [...byCourse.values()].sort((a, b) =>
      a.completedAt < b.completedAt ? -1 : a.completedAt > b.completedAt ? 1 : 0,
    ),
  };
}

/**
 * Whether `course` (id or title) is among the completions. Unlisted courses count here: this
 * answers scripts and the gate, and shows nothing to players.
 */
export function hasCompleted(
  course: string,
  completions: readonly LinkedCompletion[],
  courses: CourseIndex,
): boolean {
  const known = courses.find(course);
  const id = matchKey(known?.id ?? course);
  return completions.some(
    (c) =>
      matchKey(c.courseId) === id ||
      (known === undefined && c.title !== undefined && matchKey(c.title) === id),
  );
}

/** The required courses (ids or titles) not among the completions. */
export function missingCourses(
  required: readonly string[],
  completions: readonly LinkedCompletion[],
  courses: CourseIndex,
): string[] {
  return required.filter((course) => !hasCompleted(course, completions, courses));
}

/**
 * Names of courses for a player's eyes: titles of listed courses; unlisted or unknown ones are only
 * counted, never named.
 */
export function courseNamesForPlayers(keys: readonly string[], courses: CourseIndex): string {
  const names: string[] = [];
  let hidden = 0;
  for (const key of keys) {
    const course = courses.find(key);
    if (course?.listed) names.push(course.title);
    else hidden += 1;
  }
  if (hidden > 0)
    names.push(
      hidden === 1 && names.length === 0
        ? 'a required course'
        : `${hidden} more required course${hidden === 1 ? '' : 's'}`,
    );
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
