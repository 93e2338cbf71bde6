/**
 * A further check a joining player must pass once the roster admits them (e.g. required training).
 * Resolves to a refusal message, or `undefined` to admit. Runs inside the same deadline.
 */
export type JoinCheck = (player: {
  tempId: string;
  name: string;
  /** When the gate decides without the check (epoch ms): answer before it, on what is known. */
  deadlineAt: number;
}) => Promise<string | undefined>;
