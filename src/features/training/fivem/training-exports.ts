import { key, serverId } from '../../../platform/arguments';
import type { RosterCatalog } from '../../../roster/catalog';
import type { OnlinePlayers } from '../../../roster/online-players';
import type { ExportAnswers } from '../../exports/fivem/safe-exports';
import type { TrainingRequests } from '../training-requests';
import type { TrainingService } from '../training-service';

/** The running training side; `null` while it is off. */
export interface TrainingParts {
  service: TrainingService;
  requests: TrainingRequests;
}

/** The roster side as training reads it: players' records and the departments. */
export interface TrainingRoster {
  online: Pick<OnlinePlayers, 'view'>;
  catalog: RosterCatalog;
}

export interface TrainingExportDeps {
  training: () => TrainingParts | null;
  roster: () => TrainingRoster | null;
}

const DEFAULT_DAYS = 30;
const MAX_DAYS = 365;

/** `days` of getExpiringCertificates: absent means 30; anything but a whole number 1–365 is bad input. */
export function certificateDays(value: unknown): number | null {
  if (value === undefined || value === null) return DEFAULT_DAYS;
  const days = typeof value === 'string' && /^\d{1,4}$/.test(value.trim()) ? Number(value) : value;
  return typeof days === 'number' && Number.isInteger(days) && days >= 1 && days <= MAX_DAYS ? days : null;
}

/**
 * The training exports: name → [handler, the answer when it fails]. They answer whether training
 * is on or off; off, with their empty answers.
 */
export function trainingExports({ training, roster }: TrainingExportDeps): ExportAnswers {
  const notEnrolled = (reason: string) => ({ enrolled: false, reason });
  return {
    getTraining: [
      (src) => {
        const id = serverId(src);
        return id === null ? null : (training()?.service.training(id) ?? null);
      },
      null,
    ],
    hasCompletedCourse: [
      (src, course) => {
        const id = serverId(src);
        const c = key(course);
        return id !== null && c !== null && (training()?.service.hasCompletedCourse(id, c) ?? false);
      },
      false,
    ],
    isQualified: [
      (src, department) => {
        const id = serverId(src);
        const d = key(department);
        const parts = training();
        if (id === null || d === null || parts === null) return false;
        const known = roster();
        return parts.requests.isQualified(id, d, known?.online.view(id), known?.catalog.index);
      },
      false,
    ],
    getExpiringCertificates: [
      async (days) => {
        const n = certificateDays(days);
        const parts = training();
        return n === null || parts === null ? [] : parts.requests.expiringCertificates(n);
      },
      [],
    ],
    assignCourse: [
      async (src, course) => {
        const id = serverId(src);
        const c = key(course);
        if (id === null || c === null) return notEnrolled('expected a server id and a course id');
        const parts = training();
        if (parts === null) return notEnrolled('training is off on this server');
        return parts.requests.assignCourse(id, c);
      },
      notEnrolled('the learning service could not be asked; see the server console'),
    ],
    getTrainingProgress: [
      async (src) => {
        const id = serverId(src);
        const parts = training();
        return id === null || parts === null ? null : parts.requests.progress(id);
      },
      null,
    ],
  };
}
