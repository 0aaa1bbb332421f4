import { describe, expect, it } from 'vitest';
import { AddressPolicy } from './address-policy.js';
import { cacheSeconds } from './cache-control.js';

describe('AddressPolicy (SSRF: where a metadata document may come from)', () => {
  const strict = new AddressPolicy();

  it('allows public unicast addresses, IPv4 and IPv6', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111']) {
      expect(strict.refusal(address), address).toBeUndefined();
    }
  });

  it('refuses loopback, private, link-local (cloud metadata), CGNAT, multicast, reserved and unspecified', () => {
    const refused: Record<string, string> = {
      '127.0.0.1': 'loopback',
      '::1': 'loopback',
      '10.1.2.3': 'private',
      '172.16.0.1': 'private',
      '192.168.1.1': 'private',
      'fd00::1': 'uniqueLocal',
      '169.254.169.254': 'linkLocal',
      'fe80::1': 'linkLocal',
      '100.64.0.1': 'carrierGradeNat',
      '224.0.0.1': 'multicast',
      'ff02::1': 'multicast',
      '0.0.0.0': 'unspecified',
      '::': 'unspecified',
      '255.255.255.255': 'broadcast',
    };
    for (const [address, range] of Object.entries(refused)) {
      expect(strict.refusal(address), address).toBe(range);
    }
  });

  it('judges an IPv4-mapped IPv6 address as its IPv4 address, and refuses IPv6 forms that embed IPv4 (6to4, NAT64)', () => {
    expect(strict.refusal('::ffff:127.0.0.1')).toBe('loopback');
    expect(strict.refusal('::ffff:169.254.169.254')).toBe('linkLocal');
    expect(strict.refusal('2002:7f00:1::')).toBeDefined();
    expect(strict.refusal('64:ff9b::7f00:1')).toBeDefined();
    expect(strict.refusal('not an address')).toBe('invalid');
  });

  it('allows the ranges the operator names, and only those', () => {
    const dev = new AddressPolicy(['loopback']);
    expect(dev.refusal('127.0.0.1')).toBeUndefined();
    expect(dev.refusal('::1')).toBeUndefined();
    expect(dev.refusal('10.0.0.1')).toBe('private');
  });
});

describe('cacheSeconds (RFC 9111 §5.2.2 max-age, bounded)', () => {
  const bounds = { default: 300, min: 60, max: 3600 };
  it('uses max-age within the bounds, the default without it, the minimum for no-store and no-cache', () => {
    expect(cacheSeconds('public, max-age=600', bounds)).toBe(600);
    expect(cacheSeconds('max-age=5', bounds)).toBe(60);
    expect(cacheSeconds('max-age=999999', bounds)).toBe(3600);
    expect(cacheSeconds('', bounds)).toBe(300);
    expect(cacheSeconds('max-age=abc', bounds)).toBe(300);
    expect(cacheSeconds('no-store', bounds)).toBe(60);
    expect(cacheSeconds('No-Cache, max-age=900', bounds)).toBe(60);
  });
});
