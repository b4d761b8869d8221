import type { FastifyInstance } from 'fastify';
import { noRoute, sendProblem } from './errors.js';
import { BASE_PATH } from './plans.js';

/**
 * Operations of the platform this server does not provide, whose paths an item route would
 * otherwise catch (`GET /transactions/temporaries` looks like `GET /transactions/{transaction_id}`):
 * a client gets the 404 of a path we do not have, not a 400 about a malformed id.
 * `/transactions/product_sets` (ticket purchases, 回数券) is not served: a ticket's contents (its
 * products, uses and term) are kept by no operation of the platform, so none could be answered.
 */
const UNSERVED_PATHS = ['/transactions/temporaries', '/transactions/product_sets'] as const;

export function registerUnservedPaths(app: FastifyInstance): void {
  for (const path of UNSERVED_PATHS) {
    app.route({
      method: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
      url: `${BASE_PATH}${path}`,
      schema: { hide: true },
      handler: (request, reply) => sendProblem(reply, noRoute(request)),
    });
  }
}
