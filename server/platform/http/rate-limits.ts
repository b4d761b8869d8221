import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps, RateLimitConfig } from '../../deps.js';
import { ProblemError } from './problem.js';
import { databaseRateStore } from './rate-store.js';

/** 429 with Retry-After, in the API's problem body. */
export class TooManyRequests extends ProblemError {
  constructor(detail: string, retryAfterSeconds: number) {
    super(429, 'Too Many Requests', detail, { 'retry-after': String(retryAfterSeconds) });
  }
}

export interface RateLimits {
  /** The API's onRequest hook, after the bearer token is checked: the contract's reads or writes. */
  api(request: FastifyRequest): Promise<void>;
  /** A store node's request to the sync endpoints, once its credentials hold. */
  node(request: FastifyRequest, contractId: string, node: number): Promise<void>;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} second${ms === 1000 ? '' : 's'}` : `${ms} ms`);

/**
 * Per-contract limits as the platform has them (issue 25): at head office one contract's script
 * must not take the whole process while every other contract's terminals and sync wait. Reads
 * and writes are counted per contract (all its clients and tokens together), over a window
 * that starts at the first request; beyond the limit a 429 with Retry-After until the window
 * ends. The sync endpoints count per store node, apart from the API, so a store draining its
 * outbox is never cut off by its contract's API traffic. Counts live in this process's memory,
 * or in the database when several central processes share it (config.shared, rate-store.ts).
 * A limit of 0 is none (a store PC's default). The limits are read at each request.
 */
export async function registerRateLimits(app: FastifyInstance, deps: AppDeps): Promise<RateLimits> {
  const config = (): RateLimitConfig => deps.config.rateLimits;
  let limits: RateLimits | undefined;
  // Its own scope: the token endpoint registers the plugin for its login throttle apart.
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      // A count that cannot be written (the database locked by another program) lets the request through.
      skipOnError: true,
      ...(config().shared ? { store: databaseRateStore(deps) } : {}),
    });
    const keys = new WeakMap<FastifyRequest, string>();
    const keyGenerator = (request: FastifyRequest) => keys.get(request)!;
    const timeWindow = () => config().windowMs;
    const apiLimiter = scope.createRateLimit({ keyGenerator, timeWindow, max: (_request, key) => (key.endsWith(':read') ? config().reads : config().writes) });
    const nodeLimiter = scope.createRateLimit({ keyGenerator, timeWindow, max: () => config().syncPerNode });

    const count = async (limiter: typeof apiLimiter, request: FastifyRequest, key: string, what: string) => {
      keys.set(request, key);
      const state = await limiter(request);
      if (state.isAllowed || !state.isExceeded) return;
      // The wait is in Retry-After; the detail stays the same for every refusal of a window.
      throw new TooManyRequests(`${what} ${state.max} requests in ${seconds(state.timeWindow)}`, Math.max(1, state.ttlInSeconds));
    };

    limits = {
      async api(request) {
        const contractId = (request.params as { contract_id?: string }).contract_id ?? '';
        const read = READ_METHODS.has(request.method);
        if ((read ? config().reads : config().writes) <= 0) return;
        const kind = read ? 'read' : 'write';
        await count(apiLimiter, request, `api:${contractId}:${kind}`, `the apps of contract ${contractId} made more than their ${kind} limit of`);
      },
      async node(request, contractId, node) {
        if (config().syncPerNode <= 0) return;
        await count(nodeLimiter, request, `sync:${contractId}:${node}`, `node ${node} of contract ${contractId} made more than its sync limit of`);
      },
    };
  });
  return limits!;
}
