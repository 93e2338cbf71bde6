import type { MirroredMember } from './mirrored-member';

/**
 * Ids the audit log named while a full read ran, kept at most: past it the read cannot tell which
 * of its records a change reached, and does not count as in step with the log.
 */
export const MAX_NAMED_DURING_READ = 50_000;

/** The ids the audit log named while one read ran, at most `MAX_NAMED_DURING_READ`. */
export class NamedWindow {
  readonly ids = new Set<string>();
  overflowed = false;

  add(ids: readonly string[]): void {
    for (const id of ids) {
      if (this.ids.size >= MAX_NAMED_DURING_READ) {
        this.overflowed = true;
        return;
      }
      this.ids.add(id);
    }
  }

  /**
   * The license keys of the members held that the window saw named: by their member or assignment
   * ids (`keyNamedBy`), of the members `only` when given (`idOf` the member held under a key).
   */
  heldNamed(
    keyNamedBy: (id: string) => string | undefined,
    idOf: (key: string) => string | undefined,
    only: ReadonlySet<string> | null,
  ): string[] {
    const named = new Set<string>();
    for (const id of this.ids) {
      const key = keyNamedBy(id);
      if (key !== undefined && (only === null || only.has(idOf(key) ?? ''))) named.add(key);
    }
    return [...named];
  }
}

/** What a full read left to do before its records are answered. */
export interface ReadReplaced {
  /**
   * Licenses of members the audit log named while the read ran: their records may predate the
   * change, so they are not answered until read again.
   */
  named: string[];
  /** More ids were named than could be kept: nothing the read holds is known to be in step. */
  overflowed: boolean;
}

/**
 * The reads of members under way: each keeps the ids the audit log names while it runs, and the
 * full read also the answers heard meanwhile (null: the license is no longer held), applied on
 * top of what it brings.
 */
export class ReadsUnderWay {
  private heardDuringFull: Map<string, MirroredMember | null> | null = null;
  private full: NamedWindow | null = null;
  private readonly windows = new Set<NamedWindow>();

  beginFull(): void {
    this.heardDuringFull = new Map();
    this.full = this.open();
  }

  abandonFull(): void {
    this.heardDuringFull = null;
    if (this.full) this.close(this.full);
    this.full = null;
  }

  /** The full read ends: the answers heard while it ran, and its window. */
  endFull(): { heard: Map<string, MirroredMember | null>; window: NamedWindow } {
    const heard = this.heardDuringFull ?? new Map<string, MirroredMember | null>();
    const window = this.full ?? new NamedWindow();
    this.abandonFull();
    return { heard, window };
  }

  /** An answer for `key` heard now: kept for the full read under way, if one runs. */
  heard(key: string, member: MirroredMember | null): void {
    this.heardDuringFull?.set(key, member);
  }

  open(): NamedWindow {
    const window = new NamedWindow();
    this.windows.add(window);
    return window;
  }

  close(window: NamedWindow): void {
    this.windows.delete(window);
  }

  /** Ids the audit log named just now, kept by every read under way. */
  named(ids: Iterable<string>): void {
    if (this.windows.size === 0) return;
    const list = [...ids];
    for (const window of this.windows) window.add(list);
  }

  clear(): void {
    this.abandonFull();
    this.windows.clear();
  }
}
