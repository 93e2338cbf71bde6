import { matchKey } from '../../roster/catalog-index';
import type { CourseRecord } from './api/records';

/** The organisation's published courses, found by id or title, case-insensitively. */
export class CourseIndex {
  private readonly byKey = new Map<string, CourseRecord>();

  constructor(readonly courses: readonly CourseRecord[]) {
    // Ids first, so a title that happens to equal another course's id never shadows it.
    for (const course of courses) this.byKey.set(matchKey(course.id), course);
    for (const course of courses)
      if (!this.byKey.has(matchKey(course.title))) this.byKey.set(matchKey(course.title), course);
  }

  find(idOrTitle: string): CourseRecord | undefined {
    return this.byKey.get(matchKey(idOrTitle));
  }

  /** The id of a course by id or title; the key itself when the course is not published (or unknown). */
  idOf(idOrTitle: string): string {
    return this.find(idOrTitle)?.id ?? idOrTitle;
  }

  get size(): number {
    return this.courses.length;
  }
}
