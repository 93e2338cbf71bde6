/**
 * The order resources' event handlers and ticks run in, which FXServer leaves unspecified:
 *
 * - events: `ResourceEventManagerComponent::TriggerEvent` (citizen-resources-core
 *   ResourceEventComponent.cpp) walks `m_eventResources`, a `tbb::concurrent_unordered_multimap`
 *   from event name to resource name, filled once per (event, resource) when a resource first
 *   registers a handler (REGISTER_RESOURCE_AS_EVENT_HANDLER, EventScriptFunctions.cpp) and never
 *   emptied. Its oneTBB (citizenfx/oneTBB, `_concurrent_unordered_base.h` `search_after`) puts a
 *   new entry before the equal ones, so the resource that registered last runs first, and a
 *   restarted resource keeps its old place: that is `'registration'`.
 * - ticks: `ResourceScriptingManagerComponent` (ResourceScriptingComponent.cpp) ticks resources
 *   from a `std::unordered_map<Resource*, …>`: in an order that follows heap addresses.
 *
 * `'start'` runs both in start order (the emulator's default); `'reverse'` in reverse start order;
 * `'registration'` runs events in FXServer's order above and ticks in start order; `{ seed }` in an
 * order mixed by the seed, fixed for each event name (and for ticks), different from one seed to
 * the next. Code that is right on FXServer passes under every one of them.
 */
export type HandlerOrder = 'start' | 'reverse' | 'registration' | { readonly seed: number };

/**
 * `items` (in start order) in the order `order` runs them for `key` (an event name, or `tick`).
 * `registered` is the event's resources by registration, newest first (for `'registration'`).
 */
export function arrange<T extends { readonly name: string }>(
  items: readonly T[],
  order: HandlerOrder,
  key: string,
  registered: readonly string[] = [],
): T[] {
  if (order === 'start') return [...items];
  if (order === 'reverse') return [...items].reverse();
  if (order === 'registration') {
    const rank = (item: T) => {
      const i = registered.indexOf(item.name);
      return i < 0 ? registered.length : i;
    };
    // Stable: resources that never registered keep start order after the others.
    return [...items].sort((a, b) => rank(a) - rank(b));
  }
  const weight = (item: T) => mix(`${order.seed}\u0000${key}\u0000${item.name}`);
  return [...items].sort((a, b) => weight(a) - weight(b));
}

/** FNV-1a, 32 bits: a stable number for a string. */
function mix(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
