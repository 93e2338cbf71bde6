import { isIP } from 'node:net';

/** Where the roster service's address was read from: the convar wins over config.json. */
export type AddressSetting = 'roster_base_url' | 'api.baseUrl';

/** An IPv4 or IPv6 address, or a range of them as `address/prefix`. */
export function isAddressOrRange(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const version = isIP(address);
  // Node's isIP takes a zone (`fe80::1%eth0`); FXServer's peer addresses never carry one (inet_ntop),
  // so such an entry would never match and the panel would drop it without a word.
  if (version === 0 || rest.length > 0 || address.includes('%')) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 6 ? 128 : 32);
}

/** Validates a service address; plain HTTP is accepted only on loopback. */
export function checkAddress(address: string, key: string, problems: string[]): string {
  if (address === '') {
    problems.push(`${key} is not set: the service's address, e.g. https://roster.example.com.`);
    return '';
  }
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    problems.push(
      `${key} is "${printableAddress(address)}", which is not an address: expected e.g. https://roster.example.com.`,
    );
    return '';
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    problems.push(`${key} must be a plain address without credentials, query or fragment.`);
    return '';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    problems.push(
      `${key} must use https:// (plain http:// is accepted only for localhost, 127.x.x.x and [::1]); got "${printableAddress(address)}".`,
    );
    return '';
  }
  // The README and config.example.json write example.com addresses, which are reserved for
  // documentation: one left in place can only ever fail to answer.
  if (isPlaceholderHost(url.hostname)) {
    problems.push(
      `${key} is still the placeholder "${url.origin}" (example.com addresses are for documentation only): replace it with your ${key.startsWith('training.') ? 'learning' : 'roster'} service's address.`,
    );
    return '';
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The roster service's address: as {@link checkAddress}, and without the API's `/api/v1`, which
 * every request path already starts with (kept, it would ask for `/api/v1/api/v1/whoami`).
 */
export function checkRosterAddress(address: string, key: AddressSetting, problems: string[]): string {
  const checked = checkAddress(address, key, problems);
  const versioned = /\/api\/v1$/i.exec(checked);
  if (!versioned) return checked;
  problems.push(
    `${key} ends in /api/v1, which the resource adds to every request itself: write "${checked.slice(0, versioned.index)}" instead.`,
  );
  return '';
}

/** `example.com`, `example.net`, `example.org` and their subdomains (RFC 2606). */
function isPlaceholderHost(hostname: string): boolean {
  return /(^|\.)example\.(com|net|org)\.?$/i.test(hostname);
}

/**
 * Only names that cannot resolve elsewhere: `localhost`, an IPv4 literal in 127.0.0.0/8 and `[::1]`.
 * `127.attacker.example` or `127.0.0.1.nip.io` look local but are DNS names, so the key would leave
 * the machine in the clear. WHATWG URL parsing turns every IPv4 form (`2130706433`, `127.1`) into a
 * valid dotted quad and leaves names as names, so a dotted-quad test on the parsed host is enough.
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * An address as it may be printed: nothing that may hold a secret. Everything up to the last `@`
 * goes, scheme or not (`owner:pw@host` parses as a scheme `owner:`, and a `/` in a password ends
 * the authority early), and so do a query and a fragment (`?token=…`).
 */
export function printableAddress(address: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(address)?.[0] ?? (address.startsWith('//') ? '//' : '');
  const at = address.lastIndexOf('@');
  const rest = at >= 0 ? address.slice(at + 1) : address.slice(scheme.length);
  return `${scheme}${rest.replace(/[?#].*$/s, '')}`;
}
