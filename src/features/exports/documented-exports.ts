/** What `setRank` and `assignCourse` say while the resource is not set up. */
const NOT_SET_UP = 'The roster resource is not set up; see `roster doctor`.';

/**
 * Every export the resource documents, with its empty answer: what it gives while nothing answers
 * it (the resource failed closed on bad settings). The resource registers exactly these, once each,
 * in both modes; an async export's empty answer comes as a resolved Promise, as its real one does,
 * so a caller's `.then` or Lua's await works either way.
 */
export const DOCUMENTED_EXPORTS = {
  // Members, departments and ranks.
  getMember: { empty: null },
  isOnRoster: { empty: false },
  getDepartments: { empty: [] },
  isInDepartment: { empty: false },
  getRank: { empty: null },
  hasRank: { empty: false },
  hasMinRank: { empty: false },
  lookupLicense: { empty: null, async: true },
  refreshPlayer: { empty: null, async: true },
  setRank: { empty: { ok: false, reason: NOT_SET_UP }, async: true },
  // Training.
  getTraining: { empty: null },
  hasCompletedCourse: { empty: false },
  isQualified: { empty: false },
  getExpiringCertificates: { empty: [], async: true },
  assignCourse: { empty: { enrolled: false, reason: NOT_SET_UP }, async: true },
  getTrainingProgress: { empty: null, async: true },
  // Jobs, queue priority and duty hours.
  getJob: { empty: null },
  getPriority: { empty: 0 },
  lookupPriority: { empty: 0, async: true },
  getDutyHours: { empty: null },
} as const satisfies Record<string, { empty: unknown; async?: true }>;

export type ExportName = keyof typeof DOCUMENTED_EXPORTS;
