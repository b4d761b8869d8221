import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { postgresUrlOf } from '../../server/db/engine.js';
import { openDeps } from '../../server/deps.js';
import { MasterBulkJobStore } from '../../server/masters/bulk/job-store.js';
import { buildApp } from '../helpers/modules.js';
import { makeTestApp, okOf, problem, type TestApp } from '../helpers/app.js';
import { bulkNotices, settleBulk } from './bulk-notices.js';

/** Issue 26: the platform's bulk registration and update of products (POST and PATCH /products/bulk). */

const CALLBACK = 'https://receiver.example/products?x=1';

let t: TestApp;
let cat: string;
beforeEach(async () => {
  t = await makeTestApp();
  cat = (await t.api('POST', '/categories', { categoryName: 'Tops' })).json().categoryId;
});
afterEach(() => t.close());

const ok = okOf((method, path, body) => t.api(method, path, body));
const notices = () => bulkNotices(t, 'pos:products');
const settle = (count?: number) => settleBulk(t, 'pos:products', count);
const codes = async () => ((await ok('GET', '/products?sort=productId')) as { productCode: string }[]).map((p) => p.productCode);
const row = (code: string, over: Record<string, unknown> = {}) => ({ categoryId: cat, productCode: code, productName: code, price: '1000', ...over });

describe('POST /products/bulk', () => {
  it('answers at once, then registers every row as POST /products does and notifies callbackUrl with the ids', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const accepted = await ok('POST', '/products/bulk', { products: [row('A-1'), row('A-2', { price: '250', taxDivision: '0' })], callbackUrl: CALLBACK });
    expect(accepted).toEqual({ requestId: expect.any(Number), callbackUrl: CALLBACK });
    const body = await settle();
    expect(body).toEqual({
      contractId: t.contractId,
      event: 'pos:products',
      action: 'bulk-update',
      requestId: accepted.requestId,
      status: 'success',
      productIds: ['1001', '2001'],
      errors: [],
    });
    expect(notices()[0]).toMatchObject({ action: 'bulk-update', target_url: CALLBACK });
    expect(await ok('GET', '/products/2001')).toMatchObject({ productCode: 'A-2', price: '250', taxDivision: '0', categoryId: cat });
    // Each product reaches sync's outbox as its single registration does.
    expect(changes.filter((c) => c.entity === 'product').map((c) => [c.op, c.id])).toEqual([
      ['insert', '1001'],
      ['insert', '2001'],
    ]);
  });

  it('one refused row refuses the whole request: nothing is written and the notice names each row and field', async () => {
    await ok('POST', '/products', row('TAKEN'));
    const accepted = await ok('POST', '/products/bulk', {
      products: [row('B-1'), row('TAKEN'), row('B-3', { categoryId: '999' }), row('B-1')],
      callbackUrl: CALLBACK,
    });
    const body = await settle();
    expect(body).toMatchObject({ requestId: accepted.requestId, status: 'failed', productIds: [] });
    expect(body.errors).toEqual([
      '[products[1].productCode] product code TAKEN is already used by product 1001',
      '[products[2].categoryId] category 999 does not exist',
      '[products[3].productCode] product code B-1 is already used by product 2001',
    ]);
    expect(await codes()).toEqual(['TAKEN']);
  });

  it('400 for a bad request, which is neither accepted nor notified', async () => {
    const detail = async (body: unknown) => problem(await t.api('POST', '/products/bulk', body), 400).detail;
    expect(await detail({ products: [row('C')] })).toBe('[callbackUrl] is required');
    expect(await detail({ products: [row('C')], callbackUrl: 'ftp://x/y' })).toBe('[callbackUrl] must be an http:// or https:// URL');
    expect(await detail({ products: [], callbackUrl: CALLBACK })).toBe('[products] must have at least 1 row');
    expect(await detail({ products: Array(101).fill(row('C')), callbackUrl: CALLBACK })).toBe('[products] must have at most 100 rows');
    expect(await detail({ products: [row('C'), { categoryId: cat, productName: 'x', price: '1' }], callbackUrl: CALLBACK })).toBe('[products[1].productCode] is required');
    await new Promise((r) => setTimeout(r, 20));
    expect(t.deps.db.prepare('SELECT count(*) FROM webhook_events').pluck().get()).toBe(0);
    expect(t.deps.db.prepare('SELECT count(*) FROM master_bulk_jobs').pluck().get()).toBe(0);
  });

  it('needs pos.products:write', async () => {
    const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
    expect(problem(await t.api('POST', '/products/bulk', { products: [row('D')], callbackUrl: CALLBACK }, reader), 403).detail).toBe(
      '[scope] the token lacks the scope pos.products:write',
    );
  });
});

describe('PATCH /products/bulk', () => {
  it('updates each row by productId, only the keys sent, and notifies callbackUrl', async () => {
    const a = (await ok('POST', '/products', row('E-1'))).productId;
    const b = (await ok('POST', '/products', row('E-2'))).productId;
    const accepted = await ok('PATCH', '/products/bulk', {
      products: [
        { productId: b, price: '1200' },
        { productId: a, productName: 'Renamed', productCode: 'E-1X' },
      ],
      callbackUrl: CALLBACK,
    });
    expect(await settle()).toMatchObject({ requestId: accepted.requestId, status: 'success', productIds: [b, a], errors: [] });
    expect(await ok('GET', `/products/${a}`)).toMatchObject({ productCode: 'E-1X', productName: 'Renamed', price: '1000' });
    expect(await ok('GET', `/products/${b}`)).toMatchObject({ productCode: 'E-2', productName: 'E-2', price: '1200' });
  });

  it('a missing product or a refused change refuses every row, naming productId for the product that does not exist', async () => {
    const a = (await ok('POST', '/products', row('F-1'))).productId;
    await ok('POST', '/products', row('F-2'));
    await ok('PATCH', '/products/bulk', {
      products: [
        { productId: a, price: '1' },
        { productId: '999999', price: '2' },
        { productId: a, productCode: 'F-2' },
      ],
      callbackUrl: CALLBACK,
    });
    expect((await settle()).errors).toEqual([
      '[products[1].productId] product 999999 does not exist',
      '[products[2].productCode] product code F-2 is already used by product 2001',
    ]);
    expect((await ok('GET', `/products/${a}`)).price).toBe('1000');
  });

  it('400 for a row without productId or with a key a product does not have', async () => {
    const detail = async (body: unknown) => problem(await t.api('PATCH', '/products/bulk', body), 400).detail;
    expect(await detail({ products: [{ price: '1' }], callbackUrl: CALLBACK })).toBe('[products[0].productId] is required');
    expect(await detail({ products: [{ productId: '1001', colour: 'red' }], callbackUrl: CALLBACK })).toBe('[products[0].colour] is not a known field');
  });
});

describe('a bulk request across a stop', () => {
  it('one accepted but not applied when the server stopped is applied, once, when it starts again on the same database', async () => {
    // What an accepted request leaves when the server stops between its answer and its apply.
    t.deps.writer.write(() =>
      new MasterBulkJobStore(t.deps.db).insert(
        { contractId: t.contractId, requestId: 77, operation: 'POST /products/bulk', body: { products: [row('G-1')], callbackUrl: CALLBACK }, actor: {} },
        t.clock.now().getTime(),
      ),
    );
    // The same database again, on the run's engine (a PostgreSQL handle names its URL).
    const postgresUrl = postgresUrlOf(t.deps.db);
    const deps = openDeps({ file: t.deps.db.name, ...(postgresUrl ? { postgresUrl } : {}), clock: t.clock, checkResponses: true });
    const app = await buildApp(deps);
    try {
      await app.ready();
      const count = (sql: string) => deps.db.prepare(sql).pluck().get() as number;
      for (let i = 0; i < 2000 && count('SELECT count(*) FROM master_bulk_jobs') > 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(count('SELECT count(*) FROM master_bulk_jobs')).toBe(0);
      expect(deps.db.prepare("SELECT product_code FROM products WHERE contract_id = ?").pluck().all(t.contractId)).toEqual(['G-1']);
      const notice = JSON.parse(deps.db.prepare("SELECT body FROM webhook_events WHERE event = 'pos:products'").pluck().get() as string);
      expect(notice).toMatchObject({ requestId: 77, status: 'success', productIds: ['1001'] });
    } finally {
      await app.close();
      deps.db.close();
    }
  });
});

describe('PUT /products/attributes/{no} and GET /products/attributes', () => {
  it('registers a number without a name, renames one with it; the list answers the three slots in number order', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    expect(await ok('GET', '/products/attributes')).toEqual([]);
    expect(await ok('PUT', '/products/attributes/3', { name: 'Material' })).toEqual({ no: '3', name: 'Material' });
    expect(await ok('PUT', '/products/attributes/1', { name: 'Brand' })).toEqual({ no: '1', name: 'Brand' });
    expect(await ok('PUT', '/products/attributes/1', { name: 'Maker' })).toEqual({ no: '1', name: 'Maker' });
    expect(await ok('GET', '/products/attributes')).toEqual([
      { no: '1', name: 'Maker' },
      { no: '3', name: 'Material' },
    ]);
    // A synced master: each write reaches sync's outbox.
    expect(changes.filter((c) => c.entity === 'product_attribute').map((c) => [c.op, c.id])).toEqual([
      ['insert', '3'],
      ['insert', '1'],
      ['update', '1'],
    ]);
  });

  it('400 for a number other than 1 to 3 and for a name missing, empty or over 15 characters', async () => {
    const detail = async (path: string, body: unknown) => problem(await t.api('PUT', path, body), 400).detail;
    expect(await detail('/products/attributes/0', { name: 'x' })).toBe('[no] must be 1 to 3');
    expect(await detail('/products/attributes/4', { name: 'x' })).toBe('[no] must be 1 to 3');
    expect(await detail('/products/attributes/a', { name: 'x' })).toBe('[no] must be 1 to 3');
    expect(await detail('/products/attributes/1', {})).toBe('[name] is required');
    expect(await detail('/products/attributes/1', { name: '' })).toBe('[name] must not be empty');
    expect(await detail('/products/attributes/1', { name: 'x'.repeat(16) })).toBe('[name] must be at most 15 characters');
    expect(await ok('GET', '/products/attributes')).toEqual([]);
  });

  it('needs pos.products:write to write and pos.products:read to list', async () => {
    const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
    expect(problem(await t.api('PUT', '/products/attributes/1', { name: 'x' }, reader), 403).detail).toBe('[scope] the token lacks the scope pos.products:write');
    const writer = await t.tokenFor({ scopes: ['pos.products:write'] });
    expect(problem(await t.api('GET', '/products/attributes', undefined, writer), 403).detail).toBe('[scope] the token lacks the scope pos.products:read');
  });
});
