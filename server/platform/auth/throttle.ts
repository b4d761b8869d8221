import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import type { LoginThrottleConfig } from '../../deps.js';
import { ProblemError } from '../http/problem.js';
import { MemoryLoginAttempts, type LoginAttempts, type TakenAttempt } from './login-attempts.js';

/** 429 with Retry-After; the token endpoint's errors also carry OAuth's `error` member. */
export class TooManyLogins extends ProblemError {
  constructor(retryAfterSeconds: number) {
    const detail = `too many failed logins; retry in ${retryAfterSeconds} seconds`;
    super(429, 'Too Many Requests', detail, { 'retry-after': String(retryAfterSeconds) }, { error: 'too_many_attempts', error_description: detail });
  }
}

/** A password login that has been counted; it stays counted (a failure) unless it succeeded. */
export interface LoginAttempt {
  /** The password was right: the attempt is no longer counted against its username or address. */
  succeeded(): Promise<void>;
}

export interface LoginThrottle {
  /**
   * Counts a password login against its username and its client address before the password is
   * checked, or refuses it (TooManyLogins) when either has used up its attempts in the window.
   */
  attempt(request: FastifyRequest, username: string): Promise<LoginAttempt>;
}

/**
 * Throttles failed password logins: one counter per username (in its contract) and one per client
 * address, counted over `windowMs`. An attempt is counted before its password is checked and
 * forgiven when it was right, so only failures stay counted (staff who log in correctly are never
 * slowed) and guesses sent in parallel are cut off at the limit too: checking first and counting
 * after the slow scrypt let all of them through. A blocked username or address does not block the
 * others; a blocked one waits until its window, which its first attempt began, ends. The counters
 * are this process's (MemoryLoginAttempts) or, for several central processes on one database,
 * the database's (DatabaseLoginAttempts, chosen by the auth routes under rateLimits.shared).
 */
export function createLoginThrottle(config: () => LoginThrottleConfig, clock: Clock, attempts: LoginAttempts = new MemoryLoginAttempts(clock)): LoginThrottle {
  return {
    async attempt(request, username) {
      // Read at each request, so a changed configuration (a test's short window) applies at once.
      const { perUsername, perAddress, windowMs } = config();
      const contractId = (request.params as { contract_id?: string }).contract_id ?? '';
      const results = [
        await attempts.take(`username:${contractId}\u0000${username}`, perUsername, windowMs),
        await attempts.take(`address:${normalizeIP(request.ip)}`, perAddress, windowMs),
      ];
      const taken = results.filter((r): r is TakenAttempt => r.taken);
      const giveBack = async () => {
        for (const attempt of taken) await attempts.giveBack(attempt);
      };
      const retryAfterMs = Math.max(0, ...results.map((r) => (r.taken ? 0 : r.retryAfterMs)));
      if (taken.length < results.length) {
        // A refused login counts against neither: the other counter gets its attempt back.
        await giveBack();
        throw new TooManyLogins(Math.max(1, Math.ceil(retryAfterMs / 1000)));
      }
      return { succeeded: giveBack };
    },
  };
}
