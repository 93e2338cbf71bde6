/** What to change so the ACL holds exactly the desired links: keys to add and keys to remove. */
export function diffLinks(
  desired: ReadonlySet<string>,
  granted: ReadonlySet<string>,
): { add: string[]; remove: string[] } {
  const add: string[] = [];
  const remove: string[] = [];
  for (const key of desired) if (!granted.has(key)) add.push(key);
  for (const key of granted) if (!desired.has(key)) remove.push(key);
  return { add, remove };
}
