/** What a connecting player brings: a name and identifiers from their tickets. */
export interface PlayerInfo {
  readonly name: string;
  readonly identifiers: readonly string[];
  readonly endpoint: string;
}

export interface PlayerRecord {
  readonly tempId: number;
  /** The client's connection GUID (InitConnectMethod.cpp `guid`, checked against its ticket). */
  readonly guid: string;
  /** Final server id, set once the player joined. */
  id: number | null;
  readonly info: PlayerInfo;
  /** Current net id: the temp id while connecting, the final id after. */
  netId: number;
}

const TEMP_ID_BASE = 0x10000;
const INVALID_NET_ID = 0xffff;
/** NetLibrary.cpp GetGUID: `0x210000100000000 | m_tempGuid`. */
const GUID_BASE = 0x210000100000000n;

/** ClientDropReasons.h: the third `playerDropped` argument. */
export const DropReason = { resource: 1, client: 2, replaced: 4 } as const;

/** Who dropped a client and why: the `playerDropped` arguments after the reason (GameServer.cpp DropClientInternal). */
export interface DropCauseValue {
  readonly resource: string;
  readonly reason: number;
}

export const DropCause = {
  /** DropPlayer from a resource (PlayerScriptFunctions.cpp): the resource's name. */
  resource: (name: string): DropCauseValue => ({ resource: name, reason: DropReason.resource }),
  /** The client quit (IQuitPacketHandler.h). */
  client: { resource: '__cfx_internal:client', reason: DropReason.client },
  /** A new connection with its GUID (InitConnectMethod.cpp). */
  replaced: { resource: '__cfx_internal:server', reason: DropReason.replaced },
} as const;

/**
 * Players by net id. Temp ids are 0x10000 + n and never reused (InitConnectMethod.cpp,
 * `g_tempIds`); final ids start at 1, wrap before 0xFFFF and skip ids in use
 * (ClientRegistry.cpp, HandleConnectingClient).
 */
export class PlayerRegistry {
  private tempCount = 0;
  private curNetId = 1;
  private guidCount = 0;
  private readonly byNetId = new Map<number, PlayerRecord>();

  /**
   * A fresh connection GUID. The game makes a new one for each connection attempt
   * (NetLibrary.cpp ConnectToServer: `m_tempGuid++`, "so servers won't race to remove us").
   */
  nextGuid(): string {
    return (GUID_BASE | BigInt(++this.guidCount)).toString();
  }

  connect(info: PlayerInfo, guid: string): PlayerRecord {
    const tempId = TEMP_ID_BASE + this.tempCount++;
    const record: PlayerRecord = { tempId, guid, id: null, info, netId: tempId };
    this.byNetId.set(tempId, record);
    return record;
  }

  /** ClientRegistry.h GetClientByGuid: any client still known, connecting or joined. */
  findByGuid(guid: string): PlayerRecord | undefined {
    for (const record of this.byNetId.values()) if (record.guid === guid) return record;
    return undefined;
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
