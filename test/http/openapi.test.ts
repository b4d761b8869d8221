import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

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
      if (path.startsWith('/{contract_id}/pos')) {
        expect(statuses, where).toEqual(expect.arrayContaining(['400', '401', '403']));
        expect(op.security, where).toEqual([{ bearerAuth: [] }]);
        expect(op.parameters?.some((p) => p.name === 'contract_id' && p.in === 'path'), where).toBe(true);
      }
    }
  });

  it('lists the token endpoint and the API routes', () => {
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/app/{contract_id}/token', '/{contract_id}/pos/stores', '/{contract_id}/pos/stores/{store_id}']));
  });

  it('serves a docs UI at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
