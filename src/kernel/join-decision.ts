/** What the join gate tells listeners once it has decided on a connecting player. */
export interface JoinDecision {
  /** When the decision was made (epoch ms). */
  at: number;
  /** How long the player waited for it, in ms. */
  ms: number;
  /** The connection's temporary server id (FXServer never gives one twice). */
  tempId: string;
  name: string;
  license: string | null;
  admitted: boolean;
  /** The gate's own short account of why (as logged), e.g. `roster` or `no license identifier`. */
  note: string;
  /** The refusal message the player was shown (present when refused, or when the gate is off). */
  message: string | undefined;
}

/** Called synchronously when a join is decided; must be cheap and must not throw. */
export type JoinDecisionListener = (decision: JoinDecision) => void;
