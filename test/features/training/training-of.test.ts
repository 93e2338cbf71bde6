import { describe, expect, it } from 'vitest';
import type { LinkedCompletion } from '../../../src/features/training/api/records';
import { CourseIndex } from '../../../src/features/training/course-index';
import {
  courseNamesForPlayers,
  hasCompleted,
  missingCourses,
  trainingOf,
} from '../../../src/features/training/training-of';

const courses = new CourseIndex([
  { id: 'c-police', title: 'Police Academy', listed: true },
  { id: 'c-fire', title: 'Fire Academy', listed: true },
  { id: 'c-drive', title: 'Advanced Driving', listed: false },
]);
const done = (courseId: string, completedAt: string, title?: string): LinkedCompletion => ({
  discordId: '1',
  userSub: 's',
  courseId,
  title,
  completedAt,
});

describe('trainingOf', () => {
  it('shows listed courses only, the latest completion of each, oldest first', () => {
    const training = trainingOf(
      true,
      [
        done('c-fire', '2025-03-01T00:00:00Z'),
        done('c-police', '2025-01-01T00:00:00Z'),
        done('c-police', '2025-02-01T00:00:00Z'),
        done('c-drive', '2025-01-15T00:00:00Z'),
        done('c-gone', '2025-01-20T00:00:00Z', 'Unpublished'),
      ],
      courses,
    );
    expect(training).toEqual({
      linked: true,
      completions: [
        { courseId: 'c-police', title: 'Police Academy', completedAt: '2025-02-01T00:00:00Z' },
        { courseId: 'c-fire', title: 'Fire Academy', completedAt: '2025-03-01T00:00:00Z' },
      ],
    });
  });

  it('an unlinked player has no completions', () => {
    expect(trainingOf(false, [done('c-police', 't')], courses)).toEqual({ linked: false, completions: [] });
  });
});

describe('hasCompleted and missingCourses', () => {
  const list = [done('c-police', 't'), done('c-drive', 't')];
  it('match by id or title, case-insensitively, unlisted included', () => {
    expect(hasCompleted('POLICE ACADEMY', list, courses)).toBe(true);
    expect(hasCompleted('c-POLICE', list, courses)).toBe(true);
    expect(hasCompleted('advanced driving', list, courses)).toBe(true);
    expect(hasCompleted('Fire Academy', list, courses)).toBe(false);
  });

  it('fall back to the completion title when the course list is not loaded', () => {
    expect(hasCompleted('police academy', [done('x', 't', 'Police Academy')], new CourseIndex([]))).toBe(
      true,
    );
  });

  it('lists what is missing', () => {
    expect(missingCourses(['Police Academy', 'Fire Academy', 'nope'], list, courses)).toEqual([
      'Fire Academy',
      'nope',
    ]);
  });
});

describe('courseNamesForPlayers', () => {
  it('names listed courses, counts unlisted and unknown ones', () => {
    expect(courseNamesForPlayers(['c-police'], courses)).toBe('Police Academy');
    expect(courseNamesForPlayers(['c-police', 'fire academy'], courses)).toBe(
      'Police Academy and Fire Academy',
    );
    expect(courseNamesForPlayers(['Advanced Driving'], courses)).toBe('a required course');
    expect(courseNamesForPlayers(['c-police', 'c-drive', 'zzz'], courses)).toBe(
      'Police Academy and 2 more required courses',
    );
  });
});
