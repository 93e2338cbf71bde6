import { BlockList, isIP } from 'node:net';
import { type FxHttpRequest, headerOf } from '../../platform/fx-http';

/** Who sent a request, as far as the panel can believe it. */
export interface RequestSource {
  /** The client's lock-out key: an IPv4 address, or the /64 an IPv6 address is in. */
  client: string;
  /** The host the browser addressed: `X-Forwarded-Host` from a trusted proxy, else `Host`. */
  host: string | undefined;
  /** True when a trusted proxy says the browser spoke TLS to it (`X-Forwarded-Proto: https`). */
  secure: boolean;
}

/**
 * Reads a request's client behind the reverse proxies the owner trusts (`panel.trustedProxies`).
 * FXServer hands the handler the TCP peer as `ip:port`, an IPv6 peer as `[ip]:port`
 * (net-base/src/NetAddress.cpp, PeerAddress::ToString and GetHost), and passes the request's headers
 * through as they came (ResourceHttpHandler.cpp): it never reads `X-Forwarded-For` for a resource's
 * handler. So only a peer on the list may name the client; from anyone else the headers are ignored.
 */
export class ClientAddresses {
  private readonly trusted = new BlockList();
  private readonly any: boolean;

  /** `proxies`: addresses or ranges (`10.0.0.0/8`, `fd00::/8`), already validated by the config. */
  constructor(proxies: readonly string[] = []) {
    for (const entry of proxies) {
      const range = parseAddressRange(entry);
      if (range === null) continue;
      if (range.prefix === null) this.trusted.addAddress(range.address, range.family);
      else this.trusted.addSubnet(range.address, range.prefix, range.family);
    }
    this.any = proxies.length > 0;
  }

  source(request: FxHttpRequest): RequestSource {
    const peer = plainAddress(hostOf(String(request.address ?? '')));
    const fromProxy = peer !== null && this.isTrusted(peer);
    const forwardedHost = fromProxy ? firstOf(headerOf(request, 'x-forwarded-host')) : undefined;
    return {
      client: lockoutKey(fromProxy ? this.forwardedClient(request, peer) : (peer ?? String(request.address))),
      host: forwardedHost ?? headerOf(request, 'host'),
      secure: fromProxy && firstOf(headerOf(request, 'x-forwarded-proto'))?.toLowerCase() === 'https',
    };
  }

  /**
   * The rightmost address in `X-Forwarded-For` that is not a trusted proxy: each proxy appends the
   * peer it saw, so everything left of the last untrusted hop is whatever the client wrote.
   * Without the header (or with nothing readable at that hop) the proxy itself is the client.
   */
  private forwardedClient(request: FxHttpRequest, proxy: string): string {
    // A proxy that adds its own line beside the client's (HAProxy's `option forwardfor`) leaves two
    // spellings here when the client's differs in case (FXServer keeps one value per exact name,
    // ordered by name): which line the proxy wrote cannot be told, so neither names the client.
    const names = Object.keys(request.headers ?? {}).filter((n) => n.toLowerCase() === 'x-forwarded-for');
    if (names.length > 1) return proxy;
    const hops = (headerOf(request, 'x-forwarded-for') ?? '').split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plainAddress(hostOf(hops[i]!.trim()));
      if (hop === null) return proxy;
      if (!this.isTrusted(hop)) return hop;
    }
    return proxy;
  }

  private isTrusted(address: string): boolean {
    if (!this.any) return false;
    return this.trusted.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
}

/** An address, or a range as `address/prefix`; null when it is neither. */
export function parseAddressRange(
  text: string,
): { address: string; prefix: number | null; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0 || address.includes('%')) return null;
  const family = version === 6 ? 'ipv6' : 'ipv4';
  if (prefixText === undefined) return { address, prefix: null, family };
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= (version === 6 ? 128 : 32))) return null;
  return { address, prefix, family };
}

/** `1.2.3.4:5678` → `1.2.3.4`, `[::1]:5678` → `::1`; a bare address stays as it is. */
export function hostOf(address: string): string {
  const text = address.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) return bracketed[1]!;
  // One colon is IPv4 with a port; more is an IPv6 address without brackets, which has none.
  if (text.split(':').length === 2) return text.slice(0, text.lastIndexOf(':'));
  return text;
}

/** The address in one canonical spelling (IPv4-mapped IPv6 as IPv4), or null when it is not one. */
function plainAddress(text: string): string | null {
  const version = isIP(text);
  if (version === 4) return text;
  if (version !== 6 || text.includes('%')) return null;
  const groups = expandIpv6(text);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return new URL(`http://[${text}]`).hostname.slice(1, -1);
}

/**
 * The lock-out key, worked out once per request: an IPv4 address as it is; an IPv6 address as its
 * /64, the block one subscriber gets, so stepping through the addresses of one's own network does
 * not dodge the lock-out. Anything else (never from FXServer) is its own key.
 */
function lockoutKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = expandIpv6(address);
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (WHATWG's spelling has no dotted tail). */
function expandIpv6(address: string): number[] {
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16));
}

/** The first of a comma-separated header's values: the one the proxy nearest the browser wrote. */
function firstOf(value: string | undefined): string | undefined {
  const first = value?.split(',')[0]?.trim();
  return first === undefined || first === '' ? undefined : first;
}
