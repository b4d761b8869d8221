import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../server/deps.js';
import type { RateLimits } from '../../server/platform/http/rate-limits.js';
import { NodeRepo, type NodeRow } from '../central.js';
import { syncContext } from '../context.js';

/**
 * The sync endpoints' onRequest hook at central: each store node has its own budget
 * (server/platform/http/rate-limits.ts), apart from its contract's API clients, so a store draining its
 * outbox is never cut off by them. Only a request whose node credentials hold is counted: a
 * stranger naming a node's number cannot use that node's budget up (the route answers it 401).
 * Runs before the body is read, so a node over its limit does not send its batch for nothing.
 */
/** The node each request was authenticated as by the hook: its route takes it rather than read the node again. */
const authenticatedNodes = new WeakMap<FastifyRequest, NodeRow>();

/** The node row the rate-limit hook authenticated this request's credentials as, if it did. */
export const nodeAuthenticatedByHook = (request: FastifyRequest): NodeRow | undefined => authenticatedNodes.get(request);

export function nodeRateLimitHook(deps: AppDeps, limits: RateLimits): (request: FastifyRequest) => Promise<void> {
  const nodes = new NodeRepo(syncContext(deps));
  return async (request) => {
    if (deps.config.rateLimits.syncPerNode <= 0) return;
    const contractId = (request.params as { contract_id?: string }).contract_id;
    const match = /^Basic\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!contractId || !match) return;
    const text = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    const node = Number(text.slice(0, colon));
    if (colon < 1 || !Number.isInteger(node)) return;
    const row = nodes.authenticate(contractId, node, text.slice(colon + 1));
    if (!row) return;
    authenticatedNodes.set(request, row);
    await limits.node(request, contractId, node);
  };
}
