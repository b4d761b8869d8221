import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

interface Operation {
  responses?: Record<string, unknown>;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await makeTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('every route declares a success and its error responses', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.length).toBeGreaterThan(5);
    for (const { path, method, op } of operations) {
      const statuses = Object.keys(op.responses ?? {});
      const where = `${method.toUpperCase()} ${path}`;
      expect(statuses.some((s) => /^2\d\d$/.test(s)), `${where} declares no 2xx`).toBe(true);
      expect(statuses.some((s) => /^4\d\d$/.test(s)), `${where} declares no 4xx`).toBe(true);
      if (path.startsWith('/{contract_id}/pos') || path.startsWith('/{contract_id}/waiter')) {
        expect(statuses, where).toEqual(expect.arrayContaining(['400', '401', '403']));
        // Each operation names its one scope, a scope of the platform's families.
        expect(op.security, where).toEqual([{ oauth2: [expect.stringMatching(/^(pos|waiter|order-shipment)\.[a-z-]+:(read|write|history)$/)] }]);
        expect(op.parameters?.some((p) => p.name === 'contract_id' && p.in === 'path'), where).toBe(true);
      }
    }
  });

  it('lists the token endpoint and the API routes', () => {
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/app/{contract_id}/token', '/{contract_id}/pos/stores', '/{contract_id}/pos/stores/{store_id}']));
  });

  it('documents the restaurant routes under /waiter only (their /pos twins work but are not listed twice)', () => {
    const paths = Object.keys(doc.paths);
    for (const p of ['/reservations/{reservation_id}', '/orders/{order_id}', '/table_uses/{table_use_id}', '/table_uses/{table_use_id}/orders', '/menus', '/menu_conditions/stores/{store_id}', '/topping_groups']) {
      expect(paths, p).toContain(`/{contract_id}/waiter${p}`);
      expect(paths, p).not.toContain(`/{contract_id}/pos${p}`);
    }
    expect(doc.paths['/{contract_id}/waiter/orders/{order_id}']!.get!.security).toEqual([{ oauth2: ['waiter.orders:read'] }]);
  });

  it('declares the OAuth2 client-credentials scheme with every scope served', () => {
    const scheme = (doc as unknown as { components: { securitySchemes: Record<string, { flows?: { clientCredentials: { scopes: Record<string, string> } } }> } }).components.securitySchemes.oauth2!;
    expect(Object.keys(scheme.flows!.clientCredentials.scopes)).toEqual(expect.arrayContaining(['pos.transactions:read', 'pos.stock:write', 'waiter.orders:history', 'order-shipment.orders:write']));
  });

  it('serves a docs UI at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
