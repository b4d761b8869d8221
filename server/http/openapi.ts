import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { BASE_PATH } from './plans.js';

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
          'Store-side point-of-sale back office API. Base path /{contract_id}/pos; tokens from POST /app/{contract_id}/token.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          clientBasic: { type: 'http', scheme: 'basic' },
        },
      },
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const onApi = input.url.startsWith(BASE_PATH);
      const security = onApi ? [{ bearerAuth: [] }] : input.url.startsWith('/app/') ? [{ clientBasic: [] }] : undefined;
      return { ...out, schema: { ...out.schema, ...(security ? { security } : {}) } };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
