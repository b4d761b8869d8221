import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoginThrottleConfig } from '../../deps.js';
import { ProblemError } from '../../http/problem.js';

/** 429 with Retry-After; the token endpoint's errors also carry OAuth's `error` member. */
export class TooManyLogins extends ProblemError {
  constructor(retryAfterSeconds: number) {
    const detail = `too many failed logins; retry in ${retryAfterSeconds} seconds`;
    super(429, 'Too Many Requests', detail, { 'retry-after': String(retryAfterSeconds) }, { error: 'too_many_attempts', error_description: detail });
  }
}

export interface LoginThrottle {
  /** Refuses (TooManyLogins) a login whose username or client address has failed too often in the window. */
  check(request: FastifyRequest, username: string): Promise<void>;
  /** Counts a failed login against its username and its client address. */
  failed(request: FastifyRequest, username: string): Promise<void>;
}

/**
 * Throttles failed password logins with @fastify/rate-limit's counters: one per username (in
 * its contract) and one per client address, counted over `windowMs`. Only failures count, so
 * staff who log in correctly are never slowed, and a blocked username or address does not
 * block the others; a blocked one waits until its window, which its first failure began, ends.
 * Registered in the token endpoint's plugin (it decorates that scope only).
 */
export async function registerLoginThrottle(app: FastifyInstance, config: () => LoginThrottleConfig): Promise<LoginThrottle> {
  await app.register(rateLimit, { global: false });
  // The request carries the username in its parsed body; the limiters only need a key.
  const keyed = new WeakMap<FastifyRequest, string>();
  // Read at each request, so a changed configuration (a test's short window) applies at once.
  const timeWindow = () => config().windowMs;
  const limiters = [
    app.createRateLimit({ max: () => config().perUsername, timeWindow, keyGenerator: (request) => `username:${keyed.get(request)}` }),
    app.createRateLimit({ max: () => config().perAddress, timeWindow, keyGenerator: (request) => `address:${normalizeIP(request.ip)}` }),
  ];
  const usernameKey = (request: FastifyRequest, username: string) =>
    keyed.set(request, `${(request.params as { contract_id?: string }).contract_id ?? ''}\u0000${username}`);

  return {
    async check(request, username) {
      usernameKey(request, username);
      let retryAfter = 0;
      for (const limiter of limiters) {
        const state = await limiter(request, { increment: false });
        if (!state.isAllowed && state.remaining === 0) retryAfter = Math.max(retryAfter, state.ttlInSeconds, 1);
      }
      if (retryAfter > 0) throw new TooManyLogins(retryAfter);
    },
    async failed(request, username) {
      usernameKey(request, username);
      for (const limiter of limiters) await limiter(request);
    },
  };
}
