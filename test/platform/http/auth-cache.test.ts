import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../helpers/modules.js';
import { AUTH_CACHE_MS } from '../../../server/platform/http/auth.js';
import { ContractRepo } from '../../../server/platform/contracts/repo.js';
import { makeTestApp, problem, type TestApp } from '../../helpers/app.js';

describe('verified-token cache', () => {
  let t: TestApp;
  let categoryId: string;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'retail_business' });
    categoryId = (await t.api('POST', '/categories', { categoryName: 'Cached' })).json().categoryId;
  });
  afterEach(() => t.close());

  const getOne = () => t.api('GET', `/categories/${categoryId}`);

  it('a plan change made by this server applies to the next request', async () => {
    expect((await getOne()).statusCode).toBe(200);
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).setPlan(t.contractId, 'enterprise');
    expect(problem(await getOne(), 403).detail).toMatch(/^the contract's plan enterprise cannot use/);
  });

  it(`a change written by another process (the CLI) is seen within ${AUTH_CACHE_MS} ms`, async () => {
    expect((await getOne()).statusCode).toBe(200);
    t.deps.db.prepare("UPDATE contracts SET plan = 'enterprise' WHERE contract_id = ?").run(t.contractId);
    t.clock.advance(AUTH_CACHE_MS - 1);
    expect((await getOne()).statusCode).toBe(200);
    t.clock.advance(1);
    expect(problem(await getOne(), 403).detail).toMatch(/plan enterprise/);
  });

  it('expiry is checked on every request, cached or not', async () => {
    expect((await getOne()).statusCode).toBe(200);
    t.clock.advance(3600_000);
    expect(problem(await getOne(), 401).detail).toBe('the access token has expired');
  });
});

describe('responses without the zod check (as the server runs)', () => {
  it('are the same bytes as with it', async () => {
    const t = await makeTestApp();
    const plain = await buildApp({ ...t.deps, config: { ...t.deps.config, checkResponses: false } });
    await t.api('POST', '/stores', { storeName: 'Same', storeCode: 'S1' });
    await t.api('POST', '/categories', { categoryName: 'Same', color: '#ABCDEF' });
    await t.api('POST', '/staffs', { staffName: 'Same', staffKana: 'オナジ', adminFlag: true, displaySequence: 3 });
    await t.api('POST', '/staff_ranks', { staffRank: 'R1', staffRankFullName: 'Same', staffDiscountRate: '2.5' });
    const paths = ['/stores', '/stores/1001', '/categories', '/categories/1001?fields=level,categoryName', '/customer_groups', '/customer_group_sections'];
    for (const path of [...paths, '/staffs', '/staffs/1001', '/staff_ranks', '/staff_ranks/R1']) {
      const checked = await t.api('GET', path);
      const unchecked = await plain.inject({ method: 'GET', url: `/${t.contractId}/pos${path}`, headers: { authorization: `Bearer ${t.token}` } });
      expect(checked.statusCode, path).toBe(200);
      expect(unchecked.body, path).toBe(checked.body);
    }
    await plain.close();
    await t.close();
  });
});
