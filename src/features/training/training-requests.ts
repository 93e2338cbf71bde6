import { errorMessage } from '../../platform/error-message';
import type { CatalogIndex } from '../../roster/catalog-index';
import type { MemberView } from '../../roster/member-view';
import type { Certificate, Progress } from './api/records';
import { isNotFound, TrainingApiError } from './api/training-api-error';
import type { DepartmentRequirements } from './department-requirements';
import type { Enrollment } from './training-model';
import type { TrainingService } from './training-service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A certificate as `getExpiringCertificates` gives it: the online player it belongs to, if any. */
export interface ExpiringCertificate extends Certificate {
  src: number | null;
  /** False for unlisted courses: scripts must not show those to players. */
  listed: boolean;
}

/**
 * The asynchronous questions other resources ask (enroll, expiring certificates, progress) and
 * `isQualified`. Each resolves to a stable answer; callers still guard against rejections.
 */
export class TrainingRequests {
  constructor(
    private readonly service: TrainingService,
    private readonly requirements: DepartmentRequirements,
  ) {}

  /**
   * In the department (roster) and every course `training.departmentCourses` lists for it completed;
   * false while those requirements cannot be resolved against the roster's departments.
   */
  isQualified(
    src: string,
    department: string,
    view: MemberView | undefined,
    catalog: CatalogIndex | undefined,
  ): boolean {
    const held = view?.department(department);
    if (!held) return false;
    const required = this.requirements.coursesFor(catalog, held.id);
    if (required === null) return false;
    return required.every((course) => this.service.hasCompletedCourse(src, course));
  }

  async assignCourse(src: string, course: string): Promise<Enrollment> {
    const { service } = this;
    const player = service.players.get(src);
    if (!player) return { enrolled: false, reason: `no player ${src} is online` };
    if (player.discordId === null) return { enrolled: false, reason: 'the player has no Discord identifier' };
    if (service.courses === undefined) await service.loadCourses('refresh').catch(() => {});
    const known = service.courses?.find(course);
    if (service.courses !== undefined && known === undefined && !UUID.test(course))
      return { enrolled: false, reason: `course ${course} does not exist or is not published` };
    let link = service.knownLink(player.discordId);
    if (!link?.linked || link.userSub === undefined)
      link = await service.lookupLink(player.discordId, 'refresh');
    if (!link.linked)
      return { enrolled: false, reason: 'the player has not linked their academy account (/linktraining)' };
    if (link.userSub === undefined)
      return { enrolled: false, reason: 'the learning service did not give the user of this link' };
    try {
      const { created } = await service.api.enroll(known?.id ?? course, link.userSub);
      return { enrolled: true, created };
    } catch (error) {
      if (isNotFound(error)) {
        const said = errorMessage(error);
        if (/user/i.test(said) && !/course/i.test(said))
          return { enrolled: false, reason: 'the linked user does not exist in the organisation' };
        return { enrolled: false, reason: `course ${course} does not exist or is not published` };
      }
      if (error instanceof TrainingApiError) return { enrolled: false, reason: error.message };
      throw error;
    }
  }

  async expiringCertificates(days: number): Promise<ExpiringCertificate[]> {
    const certificates = await this.service.api.expiringCertificates(days);
    const online = new Map<string, number>();
    for (const [src, player] of this.service.players)
      if (player.discordId) online.set(player.discordId, Number(src));
    return certificates.map((certificate) => {
      const course = certificate.courseId ? this.service.courses?.find(certificate.courseId) : undefined;
      return {
        ...certificate,
        title: course?.title ?? certificate.title,
        src: certificate.discordId ? (online.get(certificate.discordId) ?? null) : null,
        listed: course?.listed ?? false,
      };
    });
  }

  /** Experience, level and badges; `null` when the gamification flag is off or the player is not linked. */
  async progress(src: string): Promise<Progress | null> {
    const { service } = this;
    const player = service.players.get(src);
    if (!player?.discordId) return null;
    if (service.identity === undefined) await service.verifyKey();
    if (service.identity?.flags.gamification !== true) return null;
    return service.api.progress(player.discordId);
  }
}
