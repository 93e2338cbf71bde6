import { fx } from '../../platform/natives';
import type { Member } from '../model';
import type { RosterEvents } from '../online-players';

/** The state bag copy of a member: no license, since player bags reach clients. */
export function publicMember(member: Member | null): Omit<Member, 'license'> | null {
  if (member === null) return null;
  const { license: _license, ...rest } = member;
  return rest;
}

/** Turns roster changes into server events and the player's `roster` state bag, in step. */
export const fivemRosterEvents: RosterEvents = {
  playerLoaded(src, member) {
    setStateBag(src, member);
    fx.emit('roster:playerLoaded', Number(src), member);
  },
  playerUpdated(src, member, previous) {
    setStateBag(src, member);
    fx.emit('roster:playerUpdated', Number(src), member, previous);
  },
};

function setStateBag(src: string, member: Member | null): void {
  fx.Player(src).state.set('roster', publicMember(member), true);
}
