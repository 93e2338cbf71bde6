/** The fixed departments and rank ladders of the seeded community (position 1 = most senior). */

export interface DepartmentTemplate {
  key: string;
  name: string;
  shortName: string;
  /** Callsign prefix; null for departments that do not hand out callsigns. */
  callsignPrefix: string | null;
  /** Relative share of primary assignments. */
  weight: number;
  ranks: readonly string[];
}

export const DEPARTMENT_TEMPLATES: readonly DepartmentTemplate[] = [
  {
    key: 'lspd',
    name: 'Los Santos Police Department',
    shortName: 'LSPD',
    callsignPrefix: '1-A-',
    weight: 30,
    ranks: [
      'Chief',
      'Assistant Chief',
      'Captain',
      'Lieutenant',
      'Sergeant',
      'Senior Officer',
      'Officer',
      'Cadet',
    ],
  },
  {
    key: 'bcso',
    name: "Blaine County Sheriff's Office",
    shortName: 'BCSO',
    callsignPrefix: '2-S-',
    weight: 20,
    ranks: ['Sheriff', 'Undersheriff', 'Captain', 'Lieutenant', 'Sergeant', 'Corporal', 'Deputy', 'Recruit'],
  },
  {
    key: 'sahp',
    name: 'San Andreas Highway Patrol',
    shortName: 'SAHP',
    callsignPrefix: '3-H-',
    weight: 12,
    ranks: ['Commissioner', 'Chief', 'Captain', 'Lieutenant', 'Sergeant', 'Trooper', 'Cadet'],
  },
  {
    key: 'safr',
    name: 'San Andreas Fire & Rescue',
    shortName: 'SAFR',
    callsignPrefix: 'E-',
    weight: 14,
    ranks: [
      'Fire Chief',
      'Deputy Chief',
      'Battalion Chief',
      'Captain',
      'Lieutenant',
      'Firefighter',
      'Probationary',
    ],
  },
  {
    key: 'doj',
    name: 'Department of Justice',
    shortName: 'DOJ',
    callsignPrefix: null,
    weight: 4,
    ranks: ['Chief Justice', 'Judge', 'District Attorney', 'Prosecutor', 'Clerk'],
  },
  {
    key: 'dispatch',
    name: 'San Andreas Communications',
    shortName: 'COMMS',
    callsignPrefix: 'D-',
    weight: 5,
    ranks: ['Communications Director', 'Supervisor', 'Dispatcher', 'Trainee'],
  },
  {
    key: 'civ',
    name: 'Civilian Operations',
    shortName: 'CIV',
    callsignPrefix: null,
    weight: 15,
    ranks: ['Civilian Director', 'Civilian Supervisor', 'Civilian'],
  },
];
