/** Most values one list request may filter on: the API's largest page. */
export const MAX_VALUES_PER_REQUEST = 100;

/**
 * Longest query string we build. 100 encoded licenses take about 6.3 KB; common proxies accept
 * request lines of 8 KB, so this leaves room for the path and paging.
 */
export const MAX_QUERY_BYTES = 7_000;

/** How many of `values` (from the start) fit in one request filtering on `param`. */
export function countThatFits(values: readonly string[], param: string, reserveBytes = 40): number {
  let bytes = reserveBytes;
  let count = 0;
  for (const value of values) {
    if (count >= MAX_VALUES_PER_REQUEST) break;
    const size = new URLSearchParams([[param, value]]).toString().length + 1;
    if (count > 0 && bytes + size > MAX_QUERY_BYTES) break;
    bytes += size;
    count += 1;
  }
  return count;
}
