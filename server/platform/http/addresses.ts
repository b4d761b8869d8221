import { BlockList, isIP } from 'node:net';

/**
 * What kind of network an IP address belongs to (IANA's special-purpose registries), so that a
 * rule can ask "is this on the public internet?" or "is this this machine or its LAN?" in one
 * place: the store's link to central (plain http only to the LAN, sync/link.ts) and head
 * office's webhook receivers (public addresses only, platform/http/receivers.ts) both read it.
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  /** 100.64.0.0/10, a carrier's NAT: not reachable from the internet. */
  | 'shared'
  | 'unspecified'
  | 'multicast'
  /** Documentation, benchmarking, protocol assignments, future use, broadcast, ... */
  | 'reserved';

/** The kinds a shop's own LAN and this machine use. */
const LAN_KINDS: ReadonlySet<AddressKind> = new Set(['loopback', 'private', 'link-local', 'unique-local']);

const V4_RANGES: readonly [AddressKind, string, number][] = [
  ['unspecified', '0.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['shared', '100.64.0.0', 10],
  ['loopback', '127.0.0.0', 8],
  ['link-local', '169.254.0.0', 16],
  ['private', '172.16.0.0', 12],
  ['reserved', '192.0.0.0', 24],
  ['reserved', '192.0.2.0', 24],
  ['reserved', '192.88.99.0', 24],
  ['private', '192.168.0.0', 16],
  ['reserved', '198.18.0.0', 15],
  ['reserved', '198.51.100.0', 24],
  ['reserved', '203.0.113.0', 24],
  ['multicast', '224.0.0.0', 4],
  ['reserved', '240.0.0.0', 4],
];

/** IPv6 outside 2000::/3 is not global unicast; these are the exceptions inside it, and the named ones outside. */
const V6_RANGES: readonly [AddressKind, string, number][] = [
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['unique-local', 'fc00::', 7],
  ['link-local', 'fe80::', 10],
  ['multicast', 'ff00::', 8],
  ['reserved', '2001::', 23],
  ['reserved', '2001:db8::', 32],
  ['reserved', '3fff::', 20],
];

const blockListsOf = (ranges: readonly [AddressKind, string, number][], type: 'ipv4' | 'ipv6') => {
  const lists = new Map<AddressKind, BlockList>();
  for (const [kind, net, prefix] of ranges) {
    const list = lists.get(kind) ?? new BlockList();
    list.addSubnet(net, prefix, type);
    lists.set(kind, list);
  }
  return [...lists];
};
const V4_LISTS = blockListsOf(V4_RANGES, 'ipv4');
const V6_LISTS = blockListsOf(V6_RANGES, 'ipv6');
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted quad expanded). */
function hextets(address: string): number[] {
  let text = address;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string) => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  if (tail === undefined) return groups(head);
  const left = groups(head);
  const right = groups(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 one stands for: IPv4-mapped (::ffff:a.b.c.d, how a dual-stack socket
 * reports an IPv4 peer), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach that IPv4 host.
 */
export function embeddedIPv4(address: string): string | undefined {
  if (isIP(address) !== 6) return undefined;
  const h = hextets(address.toLowerCase());
  if (h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff) return v4Of(h[6]!, h[7]!);
  if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return v4Of(h[6]!, h[7]!);
  if (h[0] === 0x2002) return v4Of(h[1]!, h[2]!);
  return undefined;
}

/** The kind of an IP address (v4 or v6, without brackets); undefined for anything else. */
export function addressKind(address: string): AddressKind | undefined {
  const version = isIP(address);
  if (version === 4) return V4_LISTS.find(([, list]) => list.check(address, 'ipv4'))?.[0] ?? 'public';
  if (version !== 6) return undefined;
  const v4 = embeddedIPv4(address);
  if (v4) return addressKind(v4);
  const named = V6_LISTS.find(([, list]) => list.check(address, 'ipv6'))?.[0];
  if (named) return named;
  return GLOBAL_UNICAST.check(address, 'ipv6') ? 'public' : 'reserved';
}

/** A URL's hostname as a bare name or address: no IPv6 brackets, lower case, no root dot. */
export function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
}

/** `localhost` and names under it are this machine whatever DNS says (RFC 6761 §6.3). */
export const isLocalhostName = (host: string) => {
  const name = bareHost(host);
  return name === 'localhost' || name.endsWith('.localhost');
};

/** This machine or the private LAN: a loopback, private, link-local or unique-local address, or `localhost`. */
export function isLocalHost(hostname: string): boolean {
  if (isLocalhostName(hostname)) return true;
  const kind = addressKind(bareHost(hostname));
  return kind !== undefined && LAN_KINDS.has(kind);
}

/** "a loopback address", "a private address", ... for messages. */
export function describeKind(kind: AddressKind): string {
  return kind === 'public' ? 'a public address' : LAN_KINDS.has(kind) ? `a ${kind} address` : 'a non-public address';
}

/**
 * An operator's list of exceptions: CIDRs (`10.20.0.0/16`, `fd00::/8`), single addresses and
 * host names (`hooks.internal`, or `*.corp.example` for the names under one). Separated by
 * commas or white space. Throws on an entry that is neither.
 */
export class AddressAllowList {
  private readonly blocks = new BlockList();
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  readonly entries: readonly string[];

  constructor(entries: readonly string[]) {
    this.entries = entries;
    for (const entry of entries) this.add(entry);
  }

  static parse(text: string): AddressAllowList {
    return new AddressAllowList(text.split(/[\s,]+/).filter(Boolean));
  }

  private add(entry: string): void {
    const [net, prefix, extra] = entry.split('/');
    const address = bareHost(net ?? '');
    const version = isIP(address);
    if (version) {
      const bits = version === 4 ? 32 : 128;
      const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if (extra !== undefined || !(length >= 0 && length <= bits)) throw new Error(`"${entry}" is not a CIDR: the prefix length must be 0 to ${bits}`);
      this.blocks.addSubnet(address, length, version === 4 ? 'ipv4' : 'ipv6');
      return;
    }
    const name = entry.toLowerCase().replace(/\.$/, '');
    if (prefix !== undefined || !/^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name)) {
      throw new Error(`"${entry}" is neither a CIDR, an IP address nor a host name`);
    }
    if (name.startsWith('*.')) this.suffixes.push(name.slice(1));
    else this.names.add(name);
  }

  /** The host name (not an address) is listed by name. */
  allowsName(hostname: string): boolean {
    const name = bareHost(hostname);
    return this.names.has(name) || this.suffixes.some((s) => name.endsWith(s));
  }

  /** The address lies in a listed range (an IPv4-mapped IPv6 address counts as its IPv4 one). */
  allowsAddress(address: string): boolean {
    const v4 = isIP(address) === 6 ? embeddedIPv4(address) : undefined;
    if (v4 && this.blocks.check(v4, 'ipv4')) return true;
    const version = isIP(address);
    return version !== 0 && this.blocks.check(address, version === 4 ? 'ipv4' : 'ipv6');
  }
}
