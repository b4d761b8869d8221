import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { PLANS } from '../../domain/plans.js';
import { Conflict, Forbidden, problemSchema } from '../http/problem.js';
import { isLoopback } from '../http/ui.js';
import { hashPassword } from '../auth/password.js';
import { ContractRepo } from '../contracts/repo.js';
import type { HeadOfficeLink } from './head-office.js';
import { SetupRepo } from './repo.js';
import { DEFAULT_TIME_ZONE, headOfficeBody, headOfficeLinked, setupState, shopBody, shopCreated } from './schema.js';
import { createShop } from './shop.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The first run of a store PC (issue 21), for the setup screen at /ui/#/setup: connect to head
 * office, or start a shop on its own. Token-less, so it answers the PC itself only (whatever
 * --ui-lan says: whoever sets the shop up holds every right), and it creates only while the data
 * dir has no contract (409 afterwards; the screen is then the login). A store's routes only:
 * head office is set up with the command line.
 */
export default function setupRoutes(deps: AppDeps, headOffice: HeadOfficeLink): FastifyPluginAsyncZod {
  const setup = new SetupRepo(deps.db);
  const contracts = new ContractRepo(deps.db, deps.writer, deps.clock);
  const tags = ['setup'];
  const refused = { 403: problemSchema, 409: problemSchema };

  const assertOpen = () => {
    if (setup.hasContract()) throw new Conflict('this server is set up already (it has a contract): log in instead');
  };

  return async (app) => {
    // Before the body is read or checked: another PC gets its 403, a set-up server its 409, whatever was sent.
    app.addHook('onRequest', async (request: FastifyRequest) => {
      if (!isLoopback(request.socket.remoteAddress)) throw new Forbidden('setup is done on the store PC itself: open the back office on that PC');
    });
    app.addHook('preValidation', async (request: FastifyRequest) => {
      if (request.method === 'POST') assertOpen();
    });

    app.get(
      '/setup',
      { schema: { tags, summary: 'Whether this store still needs setting up, and its first pull from head office (this PC only)', response: { 200: setupState, 403: problemSchema } } },
      async () => {
        const link = headOffice.progress();
        const contract = link && contracts.find(link.contractId);
        return {
          needed: !setup.hasContract(),
          plans: [...PLANS],
          defaultTimeZone: DEFAULT_TIME_ZONE,
          firstPull:
            link && contract
              ? { ...link, contractName: contract.name, lastPullAt: iso(link.lastPullAt), received: setup.received(link.contractId) }
              : null,
        };
      },
    );

    app.post(
      '/setup/head_office',
      {
        schema: {
          tags,
          summary: 'Set this store up by connecting it to head office (this PC only, before any contract)',
          description:
            'What `pos-backoffice link` does: checked with head office first (a refusal is a 400 naming the field: centralUrl, contractId, node or secret), then the link is saved with head office’s contract, and the masters (staff logins included) are pulled within seconds; GET /setup shows how far.',
          body: headOfficeBody,
          response: { 200: headOfficeLinked, 400: problemSchema, ...refused },
        },
      },
      async (request) => {
        const { centralUrl, contractId, node, secret, insecure } = request.body;
        return headOffice.link({ centralUrl, contractId, node: Number(node), secret, insecure: insecure ?? false }, assertOpen);
      },
    );

    app.post(
      '/setup/shop',
      {
        schema: {
          tags,
          summary: 'Set this store up as a shop on its own (this PC only, before any contract)',
          description:
            'Creates, in one transaction, the contract, its first store, a staff member with a back-office login holding every right, a register terminal and an API client with every scope. The client secret is in this answer only.',
          body: shopBody,
          response: { 200: shopCreated, 400: problemSchema, ...refused },
        },
      },
      async (request) => {
        const { password, ...shop } = request.body;
        // scrypt off the event loop, before the transaction (no slow work inside one).
        const passwordHash = await hashPassword(password);
        return createShop(deps, shop, passwordHash, assertOpen);
      },
    );
  };
}
