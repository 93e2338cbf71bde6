import { describe, expect, it } from 'vitest';
import { ClientAddresses, parseAddressRange } from '../../../src/features/panel/client-address';
import type { FxHttpRequest } from '../../../src/platform/fx-http';

const request = (address: string, headers: Record<string, string> = {}): FxHttpRequest => ({
  address,
  headers,
  method: 'GET',
  path: '/',
  setDataHandler() {},
  setCancelHandler() {},
});

describe('the client behind trusted proxies', () => {
  const proxies = new ClientAddresses(['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);

  it('believes X-Forwarded-For only from a trusted proxy, taking its rightmost untrusted hop', () => {
    const forwarded = { 'X-Forwarded-For': '6.6.6.6, 198.51.100.7, 10.1.2.3' };
    expect(proxies.source(request('127.0.0.1:40000', forwarded)).client).toBe('198.51.100.7');
    // From anyone else the header is the client's own words: the TCP peer counts.
    expect(proxies.source(request('203.0.113.5:40000', forwarded)).client).toBe('203.0.113.5');
    expect(new ClientAddresses().source(request('127.0.0.1:1', forwarded)).client).toBe('127.0.0.1');
    // A proxy that forwards nothing readable is the client itself.
    expect(proxies.source(request('127.0.0.1:1')).client).toBe('127.0.0.1');
    expect(proxies.source(request('127.0.0.1:1', { 'x-forwarded-for': 'junk' })).client).toBe('127.0.0.1');
  });

  it('keys IPv6 by its /64, once, on FXServer\'s "[ip]:port" and in X-Forwarded-For alike', () => {
    const direct = new ClientAddresses();
    expect(direct.source(request('[2001:db8:1:2::1]:5678')).client).toBe('2001:db8:1:2::/64');
    expect(direct.source(request('[2001:db8:1:2:ffff::9]:5678')).client).toBe('2001:db8:1:2::/64');
    expect(direct.source(request('[2001:db8:1:3::1]:5678')).client).toBe('2001:db8:1:3::/64');
    expect(direct.source(request('[::ffff:192.0.2.1]:5678')).client).toBe('192.0.2.1');
    const via = proxies.source(request('[fd00::1]:443', { 'X-Forwarded-For': '2001:DB8:0:0:1::5' }));
    expect(via.client).toBe('2001:db8:0:0::/64');
  });

  it('reads the addressed host and TLS from a trusted proxy only', () => {
    const headers = {
      Host: '127.0.0.1:30120',
      'X-Forwarded-Host': 'panel.example.com',
      'X-Forwarded-Proto': 'https',
    };
    expect(proxies.source(request('127.0.0.1:1', headers))).toMatchObject({
      host: 'panel.example.com',
      secure: true,
    });
    expect(proxies.source(request('203.0.113.5:1', headers))).toMatchObject({
      host: '127.0.0.1:30120',
      secure: false,
    });
  });

  it('accepts addresses and ranges, nothing else', () => {
    expect(parseAddressRange('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseAddressRange('::1')).toEqual({ address: '::1', prefix: null, family: 'ipv6' });
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.1/8/1', '', 'fd00::/129']) {
      expect(parseAddressRange(bad), bad).toBeNull();
    }
  });
});
