import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

/** Odd but possible input from a terminal: always a 4xx problem, never a 500. */
describe('bad input never becomes a 500', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.close());

  const cases: [string, string, string | undefined, Record<string, string>?][] = [
    ['GET', '/stores?limit=1&limit=2', undefined],
    ['GET', '/stores?sort=,,,', undefined],
    ['GET', '/stores/%00', undefined],
    ['GET', '/stores/99999999999999999999', undefined],
    ['GET', '/categories/1?fields=a.b.c', undefined],
    ['GET', '/categories?fields=%E2%9C%93', undefined],
    ['POST', '/stores', '{"__proto__":{"x":1},"storeName":"a"}'],
    ['POST', '/stores', '{"constructor":{"prototype":{}},"storeName":"a"}'],
    ['POST', '/stores', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['POST', '/stores', '{"storeName":"\\ud800"}'],
    ['POST', '/stores', '{"storeName":123}'],
    ['POST', '/stores', '{"storeName":"a","division":0}'],
    ['POST', '/stores', 'null'],
    ['POST', '/categories', '{"categoryName":"x","parentCategoryId":"123456789"}'],
    ['PATCH', '/categories/1001', '{"parentCategoryId":"1001"}'],
    ['PATCH', '/customer_groups/1001', '{"customerGroupSectionId":"99999999999"}'],
    ['PUT', '/customer_group_sections/1', '{"label":"x".repeat(3)}'],
    ['DELETE', '/categories/1001', undefined, { 'content-type': 'application/json' }],
  ];

  it.each(cases)('%s %s %#', async (method, path, payload, headers = {}) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url: `/${t.contractId}/pos${path}`,
      headers: { authorization: `Bearer ${t.token}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(payload !== undefined ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json().detail).toEqual(expect.any(String));
  });

  it('odd Authorization headers are 401s', async () => {
    for (const authorization of ['Bearer', 'Bearer  ', 'Bearer a b', `Bearer ${'x'.repeat(10000)}`, 'bearer \u0000']) {
      const res = await t.app.inject({ method: 'GET', url: `/${t.contractId}/pos/stores`, headers: { authorization } });
      expect(res.statusCode, authorization.slice(0, 20)).toBe(401);
    }
  });

  it('malformed Basic credentials on the token endpoint are a 401 invalid_client, never a 500', async () => {
    for (const pair of ['%:x', 'a:%E0%A4%A', 'no-colon', '']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/app/${t.contractId}/token`,
        headers: { authorization: `Basic ${Buffer.from(pair).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=password&username=S001&password=whatever1',
      });
      expect(res.statusCode, pair).toBe(401);
      expect(res.json().error, pair).toBe('invalid_client');
    }
  });
});
