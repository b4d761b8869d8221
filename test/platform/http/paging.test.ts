import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, problem, type TestApp } from '../../helpers/app.js';

describe('lists: limit, page, sort and the Link header', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    for (let i = 1; i <= 5; i++) await t.api('POST', '/stores', { storeName: `Store ${i}`, division: i % 2 ? '1' : '2' });
  });
  afterAll(() => t.close());

  const names = (res: { json(): unknown }) => (res.json() as { storeName: string }[]).map((s) => s.storeName);
  const base = () => `http://localhost/${t.contractId}/pos/stores`;

  it('first page: only a next link, keeping the other parameters', async () => {
    const res = await t.api('GET', '/stores?limit=2&sort=storeId');
    expect(names(res)).toEqual(['Store 1', 'Store 2']);
    expect(res.headers.link).toBe(`<${base()}?limit=2&sort=storeId&page=2>; rel="next"`);
  });

  it('middle page: prev and next', async () => {
    const res = await t.api('GET', '/stores?limit=2&page=2&sort=storeId');
    expect(names(res)).toEqual(['Store 3', 'Store 4']);
    expect(res.headers.link).toBe(
      `<${base()}?limit=2&page=1&sort=storeId>; rel="prev", <${base()}?limit=2&page=3&sort=storeId>; rel="next"`,
    );
  });

  it('last page: only prev', async () => {
    const res = await t.api('GET', '/stores?limit=2&page=3&sort=storeId');
    expect(names(res)).toEqual(['Store 5']);
    expect(res.headers.link).toBe(`<${base()}?limit=2&page=2&sort=storeId>; rel="prev"`);
  });

  it('a single page has no Link header; the default limit is 100', async () => {
    const res = await t.api('GET', '/stores');
    expect(names(res)).toHaveLength(5);
    expect(res.headers.link).toBeUndefined();
  });

  it('sorts by several keys, each asc or desc', async () => {
    const res = await t.api('GET', '/stores?sort=division:desc,storeId:desc');
    expect(names(res)).toEqual(['Store 4', 'Store 2', 'Store 5', 'Store 3', 'Store 1']);
  });

  it('keeps the host the client used', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/${t.contractId}/pos/stores?limit=4`,
      headers: { authorization: `Bearer ${t.token}`, host: 'backoffice.local:8080' },
    });
    expect(res.headers.link).toBe(`<http://backoffice.local:8080/${t.contractId}/pos/stores?limit=4&page=2>; rel="next"`);
  });

  it('400 naming the parameter for a bad limit, page or sort', async () => {
    expect(problem(await t.api('GET', '/stores?limit=0'), 400).detail).toBe('[limit] limit must be at least 1');
    expect(problem(await t.api('GET', '/stores?limit=1001'), 400).detail).toBe('[limit] limit must be at most 1000');
    expect(problem(await t.api('GET', '/stores?limit=ten'), 400).detail).toBe('[limit] limit must be a positive integer');
    expect(problem(await t.api('GET', '/stores?page=-1'), 400).detail).toBe('[page] page must be a positive integer');
    expect(problem(await t.api('GET', '/stores?sort=storeId:up'), 400).detail).toBe(
      '[sort] storeId:up is not a sort key; use storeId, storeCode, storeName, division with an optional :desc',
    );
    expect(problem(await t.api('GET', '/stores?colour=red'), 400).detail).toBe('[colour] is not a known field');
  });
});
