/**
 * Function references: what FXServer's msgpack ext 10 carries. A ref names a function owned by
 * one resource (or by the server itself); calling it sends packed arguments and gets packed
 * results back, so every value crosses as msgpack (main.js `setCallRefFunction`).
 */
export type RefHandler = (args: Uint8Array, caller: string | null) => Uint8Array;

interface RefEntry {
  readonly owner: string;
  readonly handler: RefHandler;
  /** The owner forgets its side (scheduler.lua's SetDeleteRefRoutine drops `funcRefs[id]`). */
  readonly deleted: (() => void) | undefined;
  refCount: number;
}

export class FuncRefRegistry {
  private next = 0;
  private readonly refs = new Map<string, RefEntry>();

  create(owner: string, handler: RefHandler, deleted?: () => void): string {
    const ref = `${owner}:${this.next++}`;
    this.refs.set(ref, { owner, handler, deleted, refCount: 0 });
    return ref;
  }

  /** Throws when the ref is gone (its resource stopped), as the native call does in FXServer. */
  invoke(ref: string, args: Uint8Array, caller: string | null): Uint8Array {
    const entry = this.refs.get(ref);
    if (!entry) throw new Error(`invalid function reference ${ref}`);
    return entry.handler(args, caller);
  }

  /** A proxy for the ref came alive in some resource (main.js `setDuplicateRefFunction`). */
  retain(ref: string): void {
    const entry = this.refs.get(ref);
    if (entry) entry.refCount++;
  }

  /** A proxy was collected; the ref goes with the last one (main.js `setDeleteRefFunction`). */
  release(ref: string): void {
    const entry = this.refs.get(ref);
    if (entry && --entry.refCount <= 0 && entry.owner !== 'server') {
      this.refs.delete(ref);
      entry.deleted?.();
    }
  }

  releaseOwner(owner: string): void {
    for (const [ref, entry] of this.refs) if (entry.owner === owner) this.refs.delete(ref);
  }

  get size(): number {
    return this.refs.size;
  }
}
