import { linkKey, type PrincipalLink } from '../../platform/principal-names';
import type { Member } from '../../roster/model';

/** What one holder (a client, or the ladders) wants, and the record it was worked out from. */
export interface Holding {
  license: string | null;
  member: Member | null;
  links: PrincipalLink[];
}

/**
 * The links every holder wants, counted: two clients of one license share a link, and it stays
 * wanted until the last of them lets it go.
 */
export class WantedLinks {
  private readonly holdings = new Map<object, Holding>();
  private readonly counted = new Map<string, { link: PrincipalLink; count: number }>();

  has(key: string): boolean {
    return this.counted.has(key);
  }

  link(key: string): PrincipalLink | undefined {
    return this.counted.get(key)?.link;
  }

  keys(): IterableIterator<string> {
    return this.counted.keys();
  }

  holds(holder: object): boolean {
    return this.holdings.has(holder);
  }

  holders(): IterableIterator<[object, Holding]> {
    return this.holdings.entries();
  }

  clear(): void {
    this.holdings.clear();
    this.counted.clear();
  }

  /** Sets what `holder` wants (`null`: nothing, it lets go); the keys of links it changes go in `touched`. */
  replace(holder: object, next: Holding | null, touched: Set<string>): void {
    for (const link of this.holdings.get(holder)?.links ?? []) {
      const key = linkKey(link);
      const entry = this.counted.get(key);
      if (entry && --entry.count === 0) this.counted.delete(key);
      touched.add(key);
    }
    if (next === null) {
      this.holdings.delete(holder);
      return;
    }
    this.holdings.set(holder, next);
    for (const link of next.links) {
      const key = linkKey(link);
      const entry = this.counted.get(key);
      if (entry) entry.count++;
      else this.counted.set(key, { link, count: 1 });
      touched.add(key);
    }
  }
}
