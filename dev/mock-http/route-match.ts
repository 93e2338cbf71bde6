/** What route matching needs of a mock's route: its method and a path with `:name` segments. */
export interface RoutePattern {
  method: string;
  pattern: string;
}

export type RouteMatch<R extends RoutePattern> =
  | { kind: 'found'; route: R; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

/** Path parameters when `path` fits `pattern`, else null. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    const actual = got[i] ?? '';
    if (segment.startsWith(':')) {
      if (actual === '') return null;
      params[segment.slice(1)] = decodeURIComponent(actual);
    } else if (segment !== actual) {
      return null;
    }
  }
  return params;
}

/** The route for `method` and `path`, or the methods the path does take (405), or none (404). */
export function findRoute<R extends RoutePattern>(
  routes: readonly R[],
  method: string,
  path: string,
): RouteMatch<R> {
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
}
