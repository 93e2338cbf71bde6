/**
 * State bags hold packed msgpack values by bag name (`global`, `player:<id>`). Player bags exist
 * only for final ids: writes to a bag that does not exist are lost. A nil value deletes the key.
 */
const NIL = 0xc0;

export interface StateBagWrite {
  readonly bag: string;
  readonly key: string;
  readonly value: Uint8Array;
  readonly replicated: boolean;
}

export class StateBags {
  private readonly bags = new Map<string, Map<string, Uint8Array>>([['global', new Map()]]);
  /** Every accepted write, newest last (bounded), so tests can check the replicated flag. */
  readonly writes: StateBagWrite[] = [];

  create(bag: string): void {
    if (!this.bags.has(bag)) this.bags.set(bag, new Map());
  }

  remove(bag: string): void {
    this.bags.delete(bag);
  }

  set(bag: string, key: string, value: Uint8Array, replicated: boolean): void {
    const entries = this.bags.get(bag);
    if (!entries) return;
    if (value.length === 1 && value[0] === NIL) entries.delete(key);
    else entries.set(key, value);
    this.writes.push({ bag, key, value, replicated });
    if (this.writes.length > 5000) this.writes.splice(0, 1000);
  }

  get(bag: string, key: string): Uint8Array | undefined {
    return this.bags.get(bag)?.get(key);
  }

  keys(bag: string): string[] {
    return [...(this.bags.get(bag)?.keys() ?? [])];
  }

  has(bag: string): boolean {
    return this.bags.has(bag);
  }
}
