/**
 * What one feature offers the others to ask for (the roster mirror's report, a player's duty
 * hours): declared once, with the type of what it gives, in the folder of the feature that
 * provides it. Asking goes to that one feature, not to every feature in turn. `name` says what is
 * provided, in the words of an error: `the roster mirror`.
 */
export class Handle<T> {
  // Never set: it ties `provide` and `get` to the type the handle was declared with.
  declare private readonly given: T;

  constructor(readonly name: string) {}
}

/** A handle provided a second time: two features claim to be the one that answers it. */
export class HandleProvidedTwice extends Error {
  constructor(handle: string) {
    super(`${handle} is provided twice`);
    this.name = 'HandleProvidedTwice';
  }
}

/**
 * The handles provided so far, one resource's worth. A feature provides its handle, once, when
 * attached (or when what it offers comes to be, like the audit feed); the others read it each time
 * they ask, never keep it, so the order the features are attached in does not matter to them.
 * Reading a handle nothing provides (its feature is off or not attached) gives null.
 */
export class Handles {
  private readonly provided = new Map<Handle<unknown>, unknown>();

  provide<T>(handle: Handle<T>, value: T): void {
    if (this.provided.has(handle)) throw new HandleProvidedTwice(handle.name);
    this.provided.set(handle, value);
  }

  get<T>(handle: Handle<T>): T | null {
    return this.provided.has(handle) ? (this.provided.get(handle) as T) : null;
  }
}
