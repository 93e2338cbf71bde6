/** The organisation's feature flags the partner API checks. */
export interface OrgFlags {
  discord: boolean;
  gamification: boolean;
  api_access: boolean;
}

export type FlagName = keyof OrgFlags;

export interface LearningOrg {
  tenant_id: string;
  /** Current alias. */
  alias: string;
  /** Aliases before renames; they keep answering the public catalog. */
  previousAliases: string[];
  name: string;
  edition: string;
  flags: OrgFlags;
  publicCatalog: boolean;
}

export type Difficulty = 'beginner' | 'intermediate' | 'advanced';

export interface CourseRecord {
  id: string;
  title: string;
  description: string;
  allow_self_enroll: boolean;
  difficulty: Difficulty;
  est_minutes: number;
  listed: boolean;
  published: boolean;
  /** Marked public by an author: shown in the public catalog. */
  public: boolean;
}

export interface UserRecord {
  user_sub: string;
  name: string;
  email: string;
}

export type EnrollmentStatus = 'assigned' | 'in_progress' | 'completed';

export interface EnrollmentRecord {
  id: string;
  course_id: string;
  user_sub: string;
  status: EnrollmentStatus;
  enrolled_at: string;
  completed_at: string | null;
}

export interface CompletionRecord {
  user_sub: string;
  course_id: string;
  completed_at: string;
}

export interface CertificateRecord {
  id: string;
  user_sub: string;
  course_id: string;
  issued_at: string;
  expires_at: string;
  revoked: boolean;
}

export interface LinkRequestRecord {
  code: string;
  discord_id: string;
  discord_username: string;
  /** Epoch ms on the mock's clock. */
  expiresAt: number;
}

export interface NotificationRecord {
  kind: 'assigned';
  user_sub: string;
  course_id: string;
  at: string;
}

export interface Badge {
  id: string;
  name: string;
  awarded_at: string;
}

export interface LearningData {
  org: LearningOrg;
  courses: CourseRecord[];
  users: UserRecord[];
  enrollments: EnrollmentRecord[];
  completions: CompletionRecord[];
  certificates: CertificateRecord[];
  /** discord_id → user_sub. */
  links: Map<string, string>;
  /** code → pending request. */
  linkRequests: Map<string, LinkRequestRecord>;
  notifications: NotificationRecord[];
  /** Seeded experience on top of what completions earn, per user_sub. */
  bonusXp: Map<string, number>;
}
