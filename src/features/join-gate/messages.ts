export type MessageValues = Partial<
  Record<'player' | 'community' | 'seconds' | 'status' | 'requestId', string>
>;

/** Fills `{placeholder}`s; unknown placeholders stay as written so a typo is visible, not silent. */
export function formatMessage(template: string, values: MessageValues): string {
  return template.replace(
    /\{(\w+)\}/g,
    (whole, name: string) => values[name as keyof MessageValues] ?? whole,
  );
}
