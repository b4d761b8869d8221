import { describe, expect, it } from 'vitest';
import { AddressAllowList, addressKind, bareHost, embeddedIPv4, isLocalHost } from '../../../server/platform/http/addresses.js';
import { checkCentralUrl, LinkError } from '../../../sync/link.js';

/**
 * Issue 25: one classifier of addresses, read by the store's link to central (plain http only
 * to the LAN) and by head office's webhook receivers (public addresses only).
 */
describe('addressKind', () => {
  it('names the special-purpose ranges of IPv4', () => {
    const kinds = Object.fromEntries(
      ['127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.20', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.1', '198.18.0.1', '8.8.8.8', '172.32.0.1', '93.184.215.14'].map(
        (a) => [a, addressKind(a)],
      ),
    );
    expect(kinds).toEqual({
      '127.0.0.1': 'loopback',
      '127.8.9.10': 'loopback',
      '10.0.0.1': 'private',
      '172.16.0.1': 'private',
      '172.31.255.255': 'private',
      '192.168.1.20': 'private',
      '169.254.169.254': 'link-local',
      '100.64.0.1': 'shared',
      '0.0.0.0': 'unspecified',
      '224.0.0.1': 'multicast',
      '255.255.255.255': 'reserved',
      '192.0.2.1': 'reserved',
      '198.18.0.1': 'reserved',
      '8.8.8.8': 'public',
      '172.32.0.1': 'public',
      '93.184.215.14': 'public',
    });
  });

  it('names IPv6 ranges, and reads the IPv4 address inside mapped, NAT64 and 6to4 ones', () => {
    const kinds = Object.fromEntries(
      ['::1', '::', 'fd00::1', 'fc12:3456::1', 'fe80::1', 'ff02::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a00:1', '64:ff9b::a9fe:a9fe', '2002:a00:1::1', '::10.0.0.1', '2606:4700:4700::1111', '::ffff:808:808'].map(
        (a) => [a, addressKind(a)],
      ),
    );
    expect(kinds).toEqual({
      '::1': 'loopback',
      '::': 'unspecified',
      'fd00::1': 'unique-local',
      'fc12:3456::1': 'unique-local',
      'fe80::1': 'link-local',
      'ff02::1': 'multicast',
      '2001:db8::1': 'reserved',
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:7f00:1': 'loopback',
      '::ffff:a00:1': 'private',
      '64:ff9b::a9fe:a9fe': 'link-local',
      '2002:a00:1::1': 'private',
      '::10.0.0.1': 'reserved',
      '2606:4700:4700::1111': 'public',
      '::ffff:808:808': 'public',
    });
    expect(embeddedIPv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(addressKind('hooks.example')).toBeUndefined();
  });

  it('a URL host is compared bare: no brackets, lower case, no root dot', () => {
    expect(bareHost(new URL('http://[::1]:8080/').hostname)).toBe('::1');
    expect(bareHost(new URL('http://LocalHost./').hostname)).toBe('localhost');
  });
});

describe('isLocalHost (the store may link to central over plain http only on the LAN)', () => {
  it('this machine and the private LAN, nothing else', () => {
    for (const host of ['localhost', 'pos.localhost', '127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.0.10', '169.254.1.1', '[::1]', '[fd12::1]', '[fe80::1]', '[::ffff:7f00:1]']) {
      expect([host, isLocalHost(host)]).toEqual([host, true]);
    }
    for (const host of ['example.com', '8.8.8.8', '100.64.0.1', '[2606:4700::1]', '0.0.0.0']) expect([host, isLocalHost(host)]).toEqual([host, false]);
    expect(checkCentralUrl('http://[::ffff:192.168.1.5]:8080/')).toBe('http://[::ffff:c0a8:105]:8080');
    expect(() => checkCentralUrl('http://hq.example.com')).toThrow(LinkError);
  });
});

describe('AddressAllowList (POS_WEBHOOK_ALLOW)', () => {
  it('CIDRs and addresses match addresses (an IPv4-mapped one as its IPv4); names match names, *. the names under one', () => {
    const allow = AddressAllowList.parse('10.20.0.0/16, 127.0.0.1 fd00::/8,hooks.internal., *.corp.example');
    expect(allow.entries).toEqual(['10.20.0.0/16', '127.0.0.1', 'fd00::/8', 'hooks.internal.', '*.corp.example']);
    expect(['10.20.3.4', '127.0.0.1', '::ffff:a14:304', 'fd00::5', '10.21.0.1', '127.0.0.2', 'fe80::1'].map((a) => allow.allowsAddress(a))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(['hooks.internal', 'HOOKS.internal.', 'a.corp.example', 'x.y.corp.example', 'corp.example', 'hooks.internal.evil'].map((n) => allow.allowsName(n))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('an entry that is neither is refused, naming it', () => {
    expect(() => AddressAllowList.parse('10.0.0.0/33')).toThrow('"10.0.0.0/33" is not a CIDR: the prefix length must be 0 to 32');
    expect(() => AddressAllowList.parse('fd00::/129')).toThrow('"fd00::/129" is not a CIDR: the prefix length must be 0 to 128');
    expect(() => AddressAllowList.parse('hooks.internal/8')).toThrow('"hooks.internal/8" is neither a CIDR, an IP address nor a host name');
    expect(() => AddressAllowList.parse('http://hooks.internal')).toThrow('"http://hooks.internal" is neither a CIDR, an IP address nor a host name');
  });
});
