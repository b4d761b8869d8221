import { promises as dns } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { AppConfig, ReceiverConfig, Resolve, ResolvedAddress } from '../../deps.js';
import { AddressAllowList, addressKind, bareHost, describeKind, isLocalhostName, type AddressKind } from './addresses.js';
import { BadRequest } from './problem.js';

/**
 * Where this instance may send webhooks and callbacks (issue 25). Head office serves third-party
 * apps from a data centre: a receiver on its own network (a cloud metadata address, a database
 * port on loopback, a private service) would turn every delivery into a request made from
 * inside, so it sends to public addresses only, except those its operator allows. A store PC
 * sends anywhere: the shop's own receiver is on its LAN, and its API clients are its own.
 *
 * The rule is asked when a receiver is named (a subscription, a CSV callbackUrl) and again at
 * every delivery, on the address the connection is made to: DNS may answer differently later.
 */

export const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** Delivery refused before connecting; its message is what the delivery records. */
export class ReceiverRefused extends Error {
  readonly code = 'ERECEIVERREFUSED';
}

const hostOf = (url: string): string | undefined => {
  try {
    return bareHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
};

export class ReceiverRule {
  private readonly allow: AddressAllowList;

  constructor(private readonly config: ReceiverConfig) {
    this.allow = new AddressAllowList(config.allow);
  }

  /** The kind of network that keeps this address from being a receiver, or undefined when it may be one. */
  private refusal(address: string): AddressKind | undefined {
    const kind = addressKind(address) ?? 'reserved';
    return kind === 'public' || this.allow.allowsAddress(address) ? undefined : kind;
  }

  /** What a host stands for: an address itself, `localhost` names this machine, other names what DNS answers. */
  private async addresses(host: string): Promise<ResolvedAddress[]> {
    const version = isIP(host);
    if (version) return [{ address: host, family: version }];
    if (isLocalhostName(host)) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
    return (this.config.resolve ?? systemResolve)(host);
  }

  /** Why the host may not receive ("is a loopback address", "resolves to a private address"), given its addresses. */
  private reason(host: string, found: readonly ResolvedAddress[]): string | undefined {
    if (this.allow.allowsName(host)) return undefined;
    for (const { address } of found) {
      const kind = this.refusal(address);
      if (kind) return isIP(host) ? `${host} is ${describeKind(kind)}` : `${host} resolves to ${describeKind(kind)}`;
    }
    return undefined;
  }

  /**
   * Why a receiver URL is refused, or undefined when it may be sent to. A name that does not
   * resolve now is let through: the delivery resolves and checks it again.
   */
  async check(url: string): Promise<string | undefined> {
    const host = hostOf(url);
    if (host === undefined) return 'cannot be read';
    if (this.allow.allowsName(host)) return undefined;
    let found: ResolvedAddress[];
    try {
      found = await this.addresses(host);
    } catch {
      return undefined;
    }
    return this.reason(host, found);
  }

  /**
   * What one delivery to `url` needs: a refusal for an address written in the URL (a socket
   * connects to those without asking DNS), else the DNS lookup to give the HTTP client, which
   * checks every address a name resolves to and hands the socket only checked ones, so the
   * address connected to is the one checked.
   */
  forDelivery(url: string): { refused: string } | { dnsLookup?: LookupFunction } {
    const host = hostOf(url);
    if (host === undefined) return { refused: 'the URL cannot be read' };
    if (isIP(host)) {
      const refused = this.reason(host, [{ address: host, family: isIP(host) }]);
      return refused ? { refused } : {};
    }
    return { dnsLookup: this.lookup };
  }

  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    const host = bareHost(hostname);
    const reply = callback as (error: NodeJS.ErrnoException | null, address?: string | ResolvedAddress[], family?: number) => void;
    this.addresses(host).then(
      (found) => {
        const refused = this.reason(host, found);
        if (refused) return reply(new ReceiverRefused(refused));
        const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const usable = family ? found.filter((a) => a.family === family) : found;
        if (!usable.length) return reply(Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' }));
        if (options.all) return reply(null, usable);
        return reply(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => reply(error),
    );
  };
}

/** The rule of this instance, or null where any receiver goes (a store PC). Read at each use: tests change the config. */
export const receiverRule = (config: AppConfig): ReceiverRule | null => (config.role === 'central' ? new ReceiverRule(config.receivers) : null);

/** Refuses a receiver named in a request (400 on `field`) that this instance may not send to. */
export async function assertReceiver(config: AppConfig, url: string, field: string): Promise<void> {
  const refused = await receiverRule(config)?.check(url);
  if (refused) {
    throw BadRequest.field(field, `the receiver ${refused}; head office sends webhooks and callbacks only to public addresses, unless its operator allows the receiver`);
  }
}
