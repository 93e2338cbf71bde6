/** What a connecting player brings: a name and identifiers from their tickets. */
export interface PlayerInfo {
  readonly name: string;
  readonly identifiers: readonly string[];
  readonly endpoint: string;
}

export interface PlayerRecord {
  readonly tempId: number;
  /** Final server id, set once the player joined. */
  id: number | null;
  readonly info: PlayerInfo;
  /** Current net id: the temp id while connecting, the final id after. */
  netId: number;
}

const TEMP_ID_BASE = 0x10000;
const INVALID_NET_ID = 0xffff;

/**
 * Players by net id. Temp ids are 0x10000 + n and never reused (InitConnectMethod.cpp,
 * `g_tempIds`); final ids start at 1, wrap before 0xFFFF and skip ids in use
 * (ClientRegistry.cpp, HandleConnectingClient).
 */
export class PlayerRegistry {
  private tempCount = 0;
  private curNetId = 1;
  private readonly byNetId = new Map<number, PlayerRecord>();

  connect(info: PlayerInfo): PlayerRecord {
    const tempId = TEMP_ID_BASE + this.tempCount++;
    const record: PlayerRecord = { tempId, id: null, info, netId: tempId };
    this.byNetId.set(tempId, record);
    return record;
  }

  assignFinalId(record: PlayerRecord): number {
    while (this.byNetId.has(this.curNetId)) this.increment();
    const id = this.curNetId;
    this.increment();
    this.byNetId.delete(record.netId);
    record.id = id;
    record.netId = id;
    this.byNetId.set(id, record);
    return id;
  }

  /** FXServer natives take the id as a number or a numeric string. */
  find(src: unknown): PlayerRecord | undefined {
    const id =
      typeof src === 'string' ? Number.parseInt(src, 10) : typeof src === 'number' ? src : Number.NaN;
    return Number.isFinite(id) ? this.byNetId.get(id) : undefined;
  }

  remove(record: PlayerRecord): void {
    if (this.byNetId.get(record.netId) === record) this.byNetId.delete(record.netId);
  }

  /** Joined players (final ids), in id order. */
  joined(): PlayerRecord[] {
    return [...this.byNetId.values()].filter((p) => p.id !== null).sort((a, b) => a.netId - b.netId);
  }

  private increment(): void {
    this.curNetId++;
    if (this.curNetId === INVALID_NET_ID) this.curNetId = 1;
  }
}
