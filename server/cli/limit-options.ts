import type { RateLimitConfig } from '../deps.js';
import { AddressAllowList } from '../platform/http/addresses.js';

/** `serve`'s options for head office's limits (issue 25); each has an environment variable. */
export const LIMIT_OPTIONS = {
  'webhook-allow': { type: 'string' },
  'rate-reads': { type: 'string' },
  'rate-writes': { type: 'string' },
  'rate-sync': { type: 'string' },
  'rate-limit-shared': { type: 'boolean' },
} as const;

export const LIMIT_USAGE = `               (--webhook-allow, env POS_WEBHOOK_ALLOW: CIDRs, addresses or host names, comma separated,
                that head office may send webhooks to although not public; --rate-reads, --rate-writes,
                env POS_RATE_READS, POS_RATE_WRITES: a contract's API requests a second, default 50 and 20
                at central, none on a store PC; --rate-sync, env POS_RATE_SYNC: a store node's sync requests
                a second, default 50; 0 turns a limit off; --rate-limit-shared, env POS_RATE_LIMIT_SHARED=1:
                count these and failed logins in the database, for several central processes on one database)`;

export interface LimitSettings {
  webhookAllow?: string[];
  rateLimits?: Partial<RateLimitConfig>;
}

type Values = { [K in keyof typeof LIMIT_OPTIONS]?: (typeof LIMIT_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** Flags win over the environment; what neither gives stays the role's default (deps.ts). */
export function limitSettings(v: Values, env: NodeJS.ProcessEnv, usageError: (message: string) => Error): LimitSettings {
  const settings: LimitSettings = {};
  const allow = v['webhook-allow'] ?? env.POS_WEBHOOK_ALLOW;
  if (allow !== undefined && allow.trim() !== '') {
    try {
      settings.webhookAllow = [...AddressAllowList.parse(allow).entries];
    } catch (error) {
      throw usageError(`--webhook-allow: ${(error as Error).message}`);
    }
  }
  const rates: Partial<RateLimitConfig> = {};
  const counts = [
    ['rate-reads', env.POS_RATE_READS, 'reads'],
    ['rate-writes', env.POS_RATE_WRITES, 'writes'],
    ['rate-sync', env.POS_RATE_SYNC, 'syncPerNode'],
  ] as const;
  for (const [flag, fromEnv, key] of counts) {
    const value = v[flag] ?? fromEnv;
    if (value === undefined || value === '') continue;
    if (!/^\d{1,6}$/.test(value)) throw usageError(`--${flag} must be an integer from 0 to 999999 (0: no limit), got "${value}"`);
    rates[key] = Number(value);
  }
  const shared = v['rate-limit-shared'] ?? (env.POS_RATE_LIMIT_SHARED === '1' || env.POS_RATE_LIMIT_SHARED === 'true');
  if (shared) rates.shared = true;
  if (Object.keys(rates).length) settings.rateLimits = rates;
  return settings;
}
