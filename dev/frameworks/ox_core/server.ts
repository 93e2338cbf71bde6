/*
 * ox_core's group side as a JS resource: GlobalState.groups and GlobalState['group.<name>'] (grades
 * as a label array, index 0 = grade 1), filled after start as the database answers; setGroup with
 * its quirks (grade 0 removes, unknown group or grade warns and answers undefined, one group per
 * type, grades compared with ===); ox:playerLoaded, ox:playerLogout, ox:setGroup. As in ox_core's
 * player/class.ts (setGroup 212-262) a character holds every group it was given side by side, one
 * per type and any number without one, and any resource may call setGroup through CallPlayer.
 */
interface Group {
  name: string;
  label: string;
  type: string | null;
  grades: string[];
}
interface Character {
  charId: number;
  userId: number;
  groups: Map<string, number>;
}
type Fn = (...args: unknown[]) => unknown;
/** The resource's FXServer globals (main.js). */
const fx = globalThis as unknown as {
  GlobalState: Record<string, unknown>;
  exports(name: string, fn: Fn): void;
  emit(event: string, ...args: unknown[]): void;
  on(event: string, fn: Fn): void;
  source: number;
};
const { GlobalState, emit, on } = fx;
const register = (name: string, fn: Fn) => fx.exports(name, fn);

const GROUPS: Group[] = [
  {
    name: 'police',
    label: 'LSPD',
    type: 'job',
    grades: ['Cadet', 'Officer', 'Sergeant', 'Lieutenant', 'Chief'],
  },
  { name: 'ems', label: 'EMS', type: 'job', grades: ['Probationary', 'Firefighter', 'Captain'] },
  { name: 'taxi', label: 'Taxi', type: 'job', grades: ['Driver'] },
  { name: 'mechanic', label: 'Mechanic', type: null, grades: ['Apprentice', 'Mechanic'] },
];
const groups = new Map<string, Group>();
const players = new Map<number, Character | null>();
/** character_groups as written: charId → name → grade. */
const saved = new Map<number, Record<string, number>>();
const calls: Record<string, number> = {};

// The groups come from the database a moment after start.
setTimeout(() => {
  for (const group of GROUPS) {
    groups.set(group.name, group);
    GlobalState[`group.${group.name}`] = group;
  }
  GlobalState.groups = GROUPS.map((g) => g.name);
}, 300);

async function setGroup(
  src: number,
  character: Character,
  name: string,
  grade = 0,
): Promise<boolean | undefined> {
  calls.setGroup = (calls.setGroup ?? 0) + 1;
  const group = groups.get(name);
  if (!group) return void console.warn(`attempted to set group '${name}' which does not exist`);
  const current = character.groups.get(name);
  if (current === grade) return undefined; // compared with ===: '2' while holding 2 writes again
  if (grade === 0 && current === undefined) return undefined; // nothing to remove: no write, no event
  if (grade !== 0 && !group.grades[(grade as number) - 1])
    return void console.warn(`attempted to set group '${name}' to invalid grade '${grade}'`);
  if (grade !== 0 && group.type && current === undefined) {
    for (const held of character.groups.keys()) {
      if (groups.get(held)?.type === group.type)
        return void console.warn(`already has group of type '${group.type}' (${held})`);
    }
  }
  await Promise.resolve(); // the database write
  if (grade === 0) character.groups.delete(name);
  else character.groups.set(name, grade);
  saved.set(character.charId, Object.fromEntries(character.groups));
  emit('ox:setGroup', src, name, grade === 0 ? null : grade);
  return true;
}

const methods: Record<string, (src: number, c: Character, ...args: never[]) => unknown> = {
  getGroups: (_src, c) => Object.fromEntries(c.groups),
  getGroup: (_src, c, name: string) => c.groups.get(name),
  setGroup: (src, c, name: string, grade?: number) => setGroup(src, c, name, grade),
};

register('GetPlayer', (src: unknown) => {
  const id = Number(src);
  if (!players.has(id)) return undefined;
  const c = players.get(id) ?? null;
  return {
    source: id,
    userId: c?.userId ?? id,
    charId: c?.charId ?? null,
    stateId: c ? `S${c.charId}` : null,
  };
});
register('CallPlayer', (src: unknown, method: unknown, ...args: unknown[]) => {
  const id = Number(src);
  const character = players.get(id);
  if (!character) return false;
  const fn = methods[String(method)];
  if (!fn) throw new Error(`no method ${String(method)}`);
  return fn(id, character, ...(args as never[]));
});

on('playerJoining', () => players.set(Number(fx.source), null));
on('playerDropped', () => {
  const id = Number(fx.source);
  const c = players.get(id);
  if (c) emit('ox:playerLogout', id, c.userId, c.charId);
  players.delete(id);
});

// For tests: a character chosen (ox:playerLoaded) and a logout.
register('Login', (src: unknown, charId: unknown) => {
  const id = Number(src);
  const character: Character = {
    charId: Number(charId),
    userId: id,
    groups: new Map(Object.entries(saved.get(Number(charId)) ?? {})),
  };
  players.set(id, character);
  emit('ox:playerLoaded', id, character.userId, character.charId);
});
register('Logout', (src: unknown) => {
  const id = Number(src);
  const c = players.get(id);
  if (!c) return;
  players.set(id, null);
  emit('ox:playerLogout', id, c.userId, c.charId);
});
register('StandInSaved', (charId: unknown) => saved.get(Number(charId)) ?? null);
register('StandInCalls', () => calls);
