import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../server/deps.js';
import { authOf } from '../../server/platform/http/auth.js';
import { commonErrorResponses, NotFound, problemSchema } from '../../server/platform/http/problem.js';
import { DeadLetters } from '../central.js';
import { ConflictLog } from '../conflicts.js';
import { syncContext } from '../context.js';
import { retryDeadLetter, syncStatus } from '../status.js';

const storeStatus = z.object({
  role: z.literal('store'),
  contractId: z.string(),
  linked: z.boolean(),
  centralUrl: z.string().nullable(),
  node: z.number().int(),
  online: z.boolean(),
  outboxDepth: z.number().int(),
  outboxOldestAgeMs: z.number().int().nullable(),
  lastPushAt: z.string().nullable(),
  lastPullAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  pullCursor: z.number().int(),
  deadLetters: z.number().int(),
  clockSkewMs: z.number().int().nullable(),
  clockSkewWarning: z.boolean(),
  hlc: z.string(),
});

const centralStatus = z.object({
  role: z.literal('central'),
  contractId: z.string(),
  nodes: z.array(
    z.object({
      node: z.number().int(),
      name: z.string().nullable(),
      revoked: z.boolean(),
      highWater: z.number().int(),
      lastPushAt: z.string().nullable(),
      lastPullAt: z.string().nullable(),
    }),
  ),
  changeLogSeq: z.number().int(),
  deadLetters: z.number().int(),
  hlc: z.string(),
});

const deadLetter = z.object({
  deadLetterId: z.number().int(),
  contractId: z.string(),
  node: z.number().int(),
  direction: z.enum(['push', 'pull']),
  seq: z.number().int(),
  entity: z.string(),
  id: z.string(),
  op: z.string(),
  hlc: z.string(),
  reason: z.string(),
  status: z.enum(['open', 'retried', 'discarded']),
  createdAt: z.number().int(),
  resolvedAt: z.number().int().nullable(),
});

const conflict = z.object({
  conflictId: z.number().int(),
  entity: z.string(),
  id: z.string(),
  winnerHlc: z.string(),
  loserHlc: z.string(),
  loser: z.object({ row: z.record(z.string(), z.unknown()), children: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).optional() }).nullable(),
  at: z.number().int(),
});

// Strict like every other list's query: an unknown parameter (a typo) is a 400 naming it, not ignored.
const conflictQuery = z.strictObject({
  entity: z.string().max(64).optional().meta({ description: 'registry name, e.g. category' }),
  id: z.string().max(128).optional().meta({ description: 'the record id (with entity: one record’s lost versions)' }),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  page: z.coerce.number().int().min(1).default(1),
});

const deadLetterParams = z.object({ dead_letter_id: z.coerce.number().int().positive() });
const listQuery = z.strictObject({ status: z.enum(['open', 'retried', 'discarded']).optional() });

/**
 * Sync status and dead letters on the ordinary API (bearer token of the contract):
 * reading (status, dead letters, the conflict log) needs pos.stores:read, retrying or discarding a
 * dead letter pos.stores:write.
 */
export default function syncStatusRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = syncContext(deps);
  const dead = new DeadLetters(ctx);
  const conflicts = new ConflictLog(ctx);
  const tags = ['sync'];
  const notFound = (id: number) => NotFound.field('dead_letter_id', `dead letter ${id} does not exist`);

  return async (app) => {
    app.get(
      '/sync/status',
      {
        config: { scope: 'pos.stores:read' },
        schema: { tags, summary: 'Sync status of this instance', response: { 200: z.union([storeStatus, centralStatus]), ...commonErrorResponses } },
      },
      async (request) => syncStatus(deps, authOf(request).contract.contractId),
    );

    app.get(
      '/sync/dead_letters',
      {
        config: { scope: 'pos.stores:read' },
        schema: { tags, summary: 'Items refused by sync', querystring: listQuery, response: { 200: z.array(deadLetter), ...commonErrorResponses } },
      },
      async (request) => dead.list(authOf(request).contract.contractId, request.query.status),
    );

    app.get(
      '/sync/conflicts',
      {
        config: { scope: 'pos.stores:read' },
        schema: {
          tags,
          summary: 'Master versions that lost to a later edit (last writer wins; a shipping first by status), newest first',
          querystring: conflictQuery,
          response: { 200: z.array(conflict), ...commonErrorResponses },
        },
      },
      async (request) => conflicts.list(authOf(request).contract.contractId, request.query),
    );

    app.post(
      '/sync/dead_letters/:dead_letter_id/retry',
      {
        config: { scope: 'pos.stores:write' },
        schema: { tags, summary: 'Apply a dead letter again', params: deadLetterParams, response: { 200: deadLetter, 404: problemSchema, ...commonErrorResponses } },
      },
      async (request) => {
        const cid = authOf(request).contract.contractId;
        const id = request.params.dead_letter_id;
        const result = retryDeadLetter(deps, cid, id);
        if (!result) throw notFound(id);
        return result;
      },
    );

    app.delete(
      '/sync/dead_letters/:dead_letter_id',
      {
        config: { scope: 'pos.stores:write' },
        schema: { tags, summary: 'Discard a dead letter', params: deadLetterParams, response: { 200: deadLetter, 404: problemSchema, ...commonErrorResponses } },
      },
      async (request) => {
        const id = request.params.dead_letter_id;
        const result = dead.discard(authOf(request).contract.contractId, id);
        if (!result) throw notFound(id);
        return result;
      },
    );
  };

}
