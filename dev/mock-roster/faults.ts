import { keyNamed } from '../mock-http/api-keys';
import { FaultSwitches } from '../mock-http/fault-switches';
import type { ApiKeyRecord } from './api-keys';
import type { MockCommunity } from './records';

export type { FailureStatus } from '../mock-http/fault-switches';

/**
 * How a member record's license is made unreadable: left out, null, empty, under another name, or
 * `bare` (the hex without its `license:` prefix, so it matches no license asked for).
 */
export type UnreadableLicense = 'missing' | 'null' | 'empty' | 'renamed' | 'bare';

/** The record as the fault sends it. */
export function withUnreadableLicense(record: Record<string, unknown>, how: UnreadableLicense) {
  const { gameLicense, ...rest } = record;
  if (how === 'missing') return rest;
  if (how === 'renamed') return { ...rest, game_license: gameLicense };
  if (how === 'bare') return { ...rest, gameLicense: String(gameLicense).replace(/^license:/, '') };
  return { ...rest, gameLicense: how === 'null' ? null : '' };
}

/**
 * Faults a test (or `POST /__mock/faults`) switches on at run time: the shared ones (latency,
 * failNext, internal, failPath, malformedJson, dropConnection, hang, rateLimit, the hostile
 * answers) plus this service's keys, plan, allowlist, license records and inline assignments.
 */
export class MockFaults extends FaultSwitches {
  /** While true every caller address is treated as off every key's allowlist. */
  ipRefused = false;
  /** While true member records carry `departmentAssignments` (with `rank`) inline. */
  inline: boolean;
  /** While set, member records carry no readable `gameLicense`: left out, null, empty, renamed or bare. */
  unreadableLicense: UnreadableLicense | null = null;
  /** While set, `GET /api/v1/openapi.json` answers this instead of the mock's own description. */
  openApi: unknown = undefined;

  constructor(
    private readonly keys: readonly ApiKeyRecord[],
    private readonly community: MockCommunity,
    inlineAssignments: boolean,
  ) {
    super();
    this.inline = inlineAssignments;
  }

  revokeKey(nameOrId: string): this {
    this.key(nameOrId).revoked = true;
    return this;
  }

  /** Makes a key expired as of now (its expiry is set to the epoch). */
  expireKey(nameOrId: string): this {
    this.key(nameOrId).expiresAt = 0;
    return this;
  }

  planLost(lost = true): this {
    this.community.planActive = !lost;
    return this;
  }

  refuseIp(on = true): this {
    this.ipRefused = on;
    return this;
  }

  unreadableMembers(how: UnreadableLicense | null = 'missing'): this {
    this.unreadableLicense = how;
    return this;
  }

  /** Serves `document` as the OpenAPI description (a broken or hostile one); `undefined` restores it. */
  replaceOpenApi(document: unknown): this {
    this.openApi = document;
    return this;
  }

  inlineAssignments(on = true): this {
    this.inline = on;
    return this;
  }

  /** Turns every fault off and releases hung requests. Revoked/expired keys stay so; the plan comes back. */
  override clear(): this {
    this.ipRefused = false;
    this.unreadableLicense = null;
    this.openApi = undefined;
    this.community.planActive = true;
    return super.clear();
  }

  private key(nameOrId: string): ApiKeyRecord {
    return keyNamed(this.keys, nameOrId, (k) => k.id, 'mock roster');
  }
}
