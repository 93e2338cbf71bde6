/**
 * The last line of `roster doctor`: the checks marked ✗ (something does not work: needs attention)
 * and those marked ! (works, with something off or worth knowing), each named once, so an owner
 * reading forty lines knows where to look. Indented lines detail the check above them and are not
 * counted again; … (under way) and ✓ lines need nothing.
 */
export function doctorSummary(lines: readonly string[]): string {
  const failed = checkNames(lines, '✗');
  const noted = checkNames(lines, '!');
  const notes = noted.length > 0 ? `; ${noted.length} worth a look (!): ${noted.join(', ')}` : '';
  if (failed.length === 0) return `doctor: all checks passed${notes}.`;
  const checks = failed.length === 1 ? '1 check needs' : `${failed.length} checks need`;
  return `doctor: ${checks} attention (✗): ${failed.join(', ')}${notes}.`;
}

/**
 * The names of the top-level checks marked `mark`, in order, each once. A part may put its name
 * before the mark (`training: ✗ the learning service did not answer …`).
 */
function checkNames(lines: readonly string[], mark: '✗' | '!'): string[] {
  const names: string[] = [];
  for (const line of lines) {
    const marked = /^(?:([a-z]+): )?(\S) (.*)$/.exec(line);
    if (marked?.[2] !== mark) continue;
    names.push(marked[1] ?? checkName(marked[3] ?? ''));
  }
  return [...new Set(names)];
}

/**
 * What a check is called: the words before its colon (`key`, `duty hours`, `mirror off`), or, when
 * those say more than a name, its first words up to a verb or any punctuation (`API description
 * confirms …` is `API description`, `queue.priority[0] (…)` is `queue`, `mirror holds …` is `mirror`).
 */
function checkName(text: string): string {
  const head = text.split(':', 1)[0]?.trim() ?? '';
  if (/^[A-Za-z]+( [A-Za-z]+){0,2}$/.test(head)) return head;
  const words: string[] = [];
  for (const word of text.split(' ').slice(0, 2)) {
    const name = /^[A-Za-z_-]+/.exec(word)?.[0];
    if (name === undefined || VERBS.has(name)) break;
    words.push(name);
    if (name !== word) break;
  }
  return words.join(' ') || text.slice(0, 20);
}

/** Words that end a check's name in the lines as they are written (`mirror holds …`). */
const VERBS = new Set(['holds', 'confirms', 'claimed', 'has', 'is', 'are']);
