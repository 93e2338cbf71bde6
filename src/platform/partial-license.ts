/** `license:0123…cdef`: enough to tell players apart on the page, not enough to impersonate one. */
export function partialLicense(license: string | null): string | null {
  if (license === null) return null;
  const colon = license.indexOf(':');
  const kind = colon >= 0 ? license.slice(0, colon + 1) : '';
  const value = colon >= 0 ? license.slice(colon + 1) : license;
  if (value.length <= 8) return `${kind}…`;
  return `${kind}${value.slice(0, 4)}…${value.slice(-4)}`;
}
