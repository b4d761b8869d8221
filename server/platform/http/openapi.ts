import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { BASE_PATH, WAITER_BASE_PATH } from './plans.js';
import { ALL_SCOPES } from './scopes.js';

/**
 * OpenAPI 3.1 generated from the routes' zod schemas, served at /openapi.json with a
 * docs UI at /docs. API routes carry the bearer security requirement.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'pos-backoffice',
        version,
        description:
          'Store-side point-of-sale back office API. Base paths /{contract_id}/pos (POS) and /{contract_id}/waiter ' +
          '(restaurant: reservations, table uses, orders, menus, menu conditions, topping groups; also served under /pos). ' +
          'Tokens from POST /app/{contract_id}/token; each operation names the scope it needs.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          oauth2: {
            type: 'oauth2',
            flows: {
              clientCredentials: {
                // OpenAPI wants a URI here, without template braces; the contract id goes where the name says.
                tokenUrl: '/app/CONTRACT_ID/token',
                scopes: Object.fromEntries(ALL_SCOPES.map((scope) => [scope, scope])),
              },
            },
          },
          clientBasic: { type: 'http', scheme: 'basic' },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const onApi = input.url.startsWith(BASE_PATH) || input.url.startsWith(WAITER_BASE_PATH);
      const scope = (input.route as { config?: { scope?: string } } | undefined)?.config?.scope;
      const security = onApi
        ? [{ oauth2: scope ? [scope] : [] }]
        : input.url.startsWith('/app/')
          ? [{ clientBasic: [] }]
          : undefined;
      return { ...out, schema: { ...out.schema, ...(security ? { security } : {}) } };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
