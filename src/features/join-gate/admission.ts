import type { Config, GateMessages } from '../../kernel/config';
import type { Resolution } from '../../roster/member-resolver';
import type { MemberView } from '../../roster/member-view';
import { rosterVerdict } from './decide';
import { formatMessage, type MessageValues } from './messages';

export type Admission =
  | { allow: true; basis: 'roster' | 'last-known' | 'policy' }
  | { allow: false; basis: 'roster' | 'last-known' | 'policy'; message: string };

/**
 * Turns what the roster said (or that it could not answer) into admit or refuse, by `gate.onError`.
 * An outage never produces "not on the roster": without a usable record the player hears "unavailable".
 */
export function admissionFor(
  resolution: Resolution,
  gate: Pick<Config['gate'], 'requireStatus' | 'departments' | 'onError'>,
  messages: GateMessages,
  values: MessageValues,
): Admission {
  if (resolution.kind === 'answer') return judge(resolution.view, 'roster', gate, messages, values);
  switch (gate.onError) {
    case 'allow':
      return { allow: true, basis: 'policy' };
    case 'deny':
      return { allow: false, basis: 'policy', message: formatMessage(messages.unavailable, values) };
    case 'cached':
      if (resolution.lastKnown) return judge(resolution.lastKnown, 'last-known', gate, messages, values);
      return { allow: false, basis: 'policy', message: formatMessage(messages.unavailable, values) };
  }
}

function judge(
  view: MemberView | null,
  basis: 'roster' | 'last-known',
  gate: Pick<Config['gate'], 'requireStatus' | 'departments'>,
  messages: GateMessages,
  values: MessageValues,
): Admission {
  const decision = rosterVerdict(view, gate);
  if (decision.allow) return { allow: true, basis };
  switch (decision.reason) {
    case 'not_on_roster':
      return { allow: false, basis, message: formatMessage(messages.notOnRoster, values) };
    case 'status':
      return {
        allow: false,
        basis,
        message: formatMessage(messages.wrongStatus, { ...values, status: decision.status }),
      };
    case 'department':
      return { allow: false, basis, message: formatMessage(messages.notInDepartment, values) };
  }
}
