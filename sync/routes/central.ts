import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../server/deps.js';
import { BadRequest, Forbidden, problemSchema, ProblemError } from '../../server/platform/http/problem.js';
import { syncContext } from '../context.js';
import { CentralSync, type NodeRow } from '../central.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { installation, linkResponse, MAX_PUSH_BODY, pullQuery, pullResponse, pushBody, pushResponse } from '../wire.js';
import { nodeAuthenticatedByHook } from './node-limit.js';

const params = z.object({ contract_id: z.string().max(64) });
const linkQuery = z.strictObject({ installation: installation.optional() });

const errors = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema };

class NodeUnauthorized extends ProblemError {
  constructor(detail: string) {
    super(401, 'Unauthorized', detail, { 'www-authenticate': 'Basic realm="pos-backoffice sync"' });
  }
}

/**
 * Pushes take turns, each from its own setImmediate after the one before: a push holds the event
 * loop for its whole write (the database calls are synchronous), and the requests that arrived
 * meanwhile, a head office report or a store's pull, are answered in the loop's turn between
 * two pushes rather than after every push already received (a chain's stores send ~100 a
 * second). The order of the pushes stays that of their arrival.
 */
function takingTurns(): () => Promise<void> {
  let last: Promise<void> = Promise.resolve();
  return () => {
    const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    last = turn;
    return turn;
  };
}

/**
 * Central's sync endpoints (DESIGN §5), outside the API's bearer auth: each store node presents
 * HTTP Basic `<node number>:<node secret>` (from `pos-backoffice node add`).
 */
export default function centralSyncRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const ctx = syncContext(deps);
  const central = new CentralSync(ctx);
  // Masters written without the hooks (before sync, by one-shot commands) join the change log first.
  central.seedAll();

  const authenticate = (request: FastifyRequest, contractId: string): NodeRow => {
    const match = /^Basic\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) throw new NodeUnauthorized('node credentials are required (Authorization: Basic <node>:<secret>)');
    const text = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    const node = Number(text.slice(0, colon));
    if (colon < 1 || !Number.isInteger(node)) throw new NodeUnauthorized('node credentials must be <node number>:<secret>');
    // Already judged on these credentials by the rate-limit hook (node-limit.ts): not read twice.
    const known = nodeAuthenticatedByHook(request);
    if (known && known.contract_id === contractId && known.node === node) return known;
    const judged = central.nodes.judge(contractId, node, text.slice(colon + 1));
    if ('row' in judged) return judged.row;
    // Every refusal is a 401 (a store's agent treats them alike); the detail names what is wrong
    // for the operator running `link`.
    if (judged.refused === 'unknown' && !contractExists(contractId)) throw new NodeUnauthorized(`contract ${contractId} does not exist at central`);
    throw new NodeUnauthorized(
      judged.refused === 'unknown'
        ? `node ${node} of contract ${contractId} is not registered at central (pos-backoffice node add)`
        : judged.refused === 'secret'
          ? `the secret does not match node ${node} of contract ${contractId}`
          : `node ${node} of contract ${contractId} was revoked at central`,
    );
  };
  const contractExists = (id: string) => deps.db.prepare('SELECT 1 FROM contracts WHERE contract_id = ?').get(id) !== undefined;
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);
  const pushTurn = takingTurns();

  return async (app) => {
    app.post(
      '/sync/:contract_id/push',
      {
        bodyLimit: MAX_PUSH_BODY,
        schema: {
          tags: ['sync'],
          summary: 'Push a batch of a store node’s outbox (central)',
          params,
          body: pushBody,
          response: { 200: pushResponse, ...errors, 409: problemSchema },
        },
        // After the body is read, before the handler (and its retry when the database is busy).
        preHandler: async () => pushTurn(),
      },
      async (request) => {
        const node = authenticate(request, request.params.contract_id);
        if (request.body.node !== node.node) throw new Forbidden(`[node] node ${node.node} cannot push for node ${request.body.node}`);
        const seqs = request.body.items.map((i) => i.seq);
        if (seqs.some((s, i) => i > 0 && s <= seqs[i - 1]!)) throw BadRequest.field('items', 'items must be in increasing seq order');
        // The answer's clock value is minted in the push's own write: one commit a push, not a
        // second one for the clock (on PostgreSQL each commit waits for its WAL flush). A push
        // whose balance entries minted and saved the clock moments ago answers the last of them
        // (the store's clock moves past it): not a second catch-up and save, two round trips.
        const answer = deps.writer.write(() => {
          const minted = ctx.hlc.minted;
          const pushed = central.push(node.contract_id, node.node, request.body.items, request.body.tables ?? {}, request.body.installation);
          return { ...pushed, hlc: ctx.hlc.minted > minted ? ctx.hlc.peek() : ctx.hlc.now() };
        });
        return { ...answer, wallTime: deps.clock.now().getTime() };
      },
    );

    app.get(
      '/sync/:contract_id/link',
      {
        schema: {
          tags: ['sync'],
          summary: 'Check a store node’s link before the store saves it (central)',
          description:
            'What `pos-backoffice link` asks before it saves anything: the node credentials, whether another installation already pushes as this node, and the contract the store must hold. Nothing is written.',
          params,
          querystring: linkQuery,
          response: { 200: linkResponse, ...errors, 409: problemSchema },
        },
      },
      async (request) => {
        const node = authenticate(request, request.params.contract_id);
        const refused = request.query.installation && central.nodes.claimedByOther(node, request.query.installation);
        if (refused) throw refused;
        const { settings, ...contract } = contracts.find(node.contract_id)!;
        return { contract: { ...contract, settings: { ...settings } }, node: node.node, hlc: ctx.hlc.now(), wallTime: deps.clock.now().getTime() };
      },
    );

    app.get(
      '/sync/:contract_id/pull',
      {
        schema: {
          tags: ['sync'],
          summary: 'Pull master changes after a cursor (central)',
          params,
          querystring: pullQuery,
          response: { 200: pullResponse, ...errors },
        },
      },
      async (request) => {
        const node = authenticate(request, request.params.contract_id);
        const page = central.pull(node.contract_id, node.node, request.query.cursor, request.query.limit);
        return { ...page, hlc: ctx.hlc.now(), wallTime: deps.clock.now().getTime() };
      },
    );
  };
}


