type Child = Node | string | number | null | undefined | false;

/** A tiny element builder: text is always set as text, never parsed as HTML. */
export function h(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : String(child));
  }
  return element;
}

export function ago(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

export function clock(at: number): string {
  const parts = { hour: '2-digit', minute: '2-digit', second: '2-digit' } as const;
  try {
    return new Date(at).toLocaleTimeString([], parts);
  } catch {
    // A browser whose default locale is no valid tag (POSIX-style `en-US@posix`) throws RangeError
    // here; the page still shows the time rather than stopping.
    return new Date(at).toLocaleTimeString('en-GB', parts);
  }
}

/**
 * Each cell carries its column's name (`data-label`): where the table is too narrow for its columns
 * the style sheet lays each row out as a card and places or labels the cells by it.
 */
export function table(head: string[], rows: Child[][]): HTMLElement {
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...head.map((name) => h('th', {}, name)))),
    h(
      'tbody',
      {},
      ...rows.map((row) =>
        h('tr', {}, ...row.map((cell, i) => h('td', { 'data-label': head[i] ?? '' }, cell))),
      ),
    ),
  );
}

/**
 * Several values in one cell, one line each (a member's departments): side by side, cells built
 * from the same list keep their lines level, so the nth department sits beside its rank.
 */
export function lines(values: string[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  fragment.append(...values.map((value) => h('div', { class: 'line' }, value)));
  return fragment;
}
