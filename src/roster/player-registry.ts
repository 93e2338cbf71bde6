import type { MemberView } from './member-view';

export interface PlayerEntry {
  license: string | null;
  name: string;
  /** `undefined` until the roster has answered; `null`: not on the roster. */
  view: MemberView | null | undefined;
  since: number;
  /** Set once `roster:playerLoaded` went out; later changes are announced as updates. */
  announced?: boolean;
}

/**
 * Players the resource knows, by server id: connecting ones under their temporary id, joined ones
 * under their final id. Temporary ids that never join are swept.
 */
export class PlayerRegistry {
  private readonly connecting = new Map<string, PlayerEntry>();
  private readonly online = new Map<string, PlayerEntry>();
  /** License → temporary id of connecting players, to find one by their final id at `playerJoining`. */
  private readonly connectingByLicense = new Map<string, string>();

  /**
   * @param licenseOf reads a server id's license. FXServer runs other resources' `playerJoining`
   * handlers in no set order (an unordered multimap of event → resource), possibly before ours moves
   * the player to their final id; a final id not known yet is then found by its license.
   */
  constructor(private readonly licenseOf?: (id: string) => string | null) {}

  connect(tempId: string, entry: PlayerEntry): void {
    this.connecting.set(tempId, entry);
    if (entry.license !== null) this.connectingByLicense.set(entry.license, tempId);
  }

  /** Moves a connecting player to their final id; a player not seen connecting starts fresh. */
  join(finalId: string, tempId: string, fallback: () => PlayerEntry): PlayerEntry {
    const entry = this.connecting.get(tempId) ?? fallback();
    this.forgetConnecting(tempId);
    this.online.set(finalId, entry);
    return entry;
  }

  /** Registers a player already online (e.g. when the resource restarts). */
  add(id: string, entry: PlayerEntry): void {
    this.online.set(id, entry);
  }

  drop(id: string): PlayerEntry | undefined {
    const entry = this.online.get(id) ?? this.connecting.get(id);
    this.online.delete(id);
    this.forgetConnecting(id);
    return entry;
  }

  /**
   * The entry of a joined player, or of a connecting one by temporary id, or of one joining right
   * now whose final id we have not seen yet (found by license; costs nothing while nobody connects).
   */
  get(id: string): PlayerEntry | undefined {
    return this.online.get(id) ?? this.connecting.get(id) ?? this.joining(id);
  }

  private joining(id: string): PlayerEntry | undefined {
    if (this.connectingByLicense.size === 0 || this.licenseOf === undefined) return undefined;
    const license = this.licenseOf(id);
    const tempId = license === null ? undefined : this.connectingByLicense.get(license);
    return tempId === undefined ? undefined : this.connecting.get(tempId);
  }

  private forgetConnecting(tempId: string): void {
    const entry = this.connecting.get(tempId);
    if (entry?.license != null && this.connectingByLicense.get(entry.license) === tempId)
      this.connectingByLicense.delete(entry.license);
    this.connecting.delete(tempId);
  }

  isOnline(id: string): boolean {
    return this.online.has(id);
  }

  /** Drops connecting entries older than `maxAgeMs`; returns how many went. */
  sweep(now: number, maxAgeMs: number): number {
    let swept = 0;
    for (const [id, entry] of this.connecting) {
      if (now - entry.since > maxAgeMs) {
        this.forgetConnecting(id);
        swept++;
      }
    }
    return swept;
  }

  /** Every entry the registry holds, connecting and joined. */
  *entries(): Generator<PlayerEntry> {
    yield* this.connecting.values();
    yield* this.online.values();
  }

  *onlinePlayers(): Generator<[string, PlayerEntry]> {
    yield* this.online;
  }

  get onlineCount(): number {
    return this.online.size;
  }

  get connectingCount(): number {
    return this.connecting.size;
  }
}
