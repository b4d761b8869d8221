import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const notFound = (detail: string) => ({ type: 'about:blank', title: 'Not Found', status: 404, detail });

describe('product free-item labels', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const label = async (no: string, text: string) => {
    const res = await t.api('POST', '/products/reserve_item_labels', { no, label: text });
    if (res.statusCode !== 200) throw new Error(`label failed: ${res.body}`);
  };
  const productWith = async (code: string, items: { no: string; value: string }[]) => {
    const category = await t.api('POST', '/categories', { categoryName: `C ${code}` });
    const res = await t.api('POST', '/products', {
      categoryId: category.json().categoryId,
      productCode: code,
      productName: code,
      price: '100',
      reserveItems: items,
    });
    if (res.statusCode !== 200) throw new Error(`product failed: ${res.body}`);
    return res.json().productId as string;
  };

  it('creates a label, then refuses the same number again', async () => {
    const res = await t.api('POST', '/products/reserve_item_labels', { no: '3', label: 'Supplier' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ no: '3', label: 'Supplier', insDateTime: AT_T0, updDateTime: AT_T0 });
    expect(problem(await t.api('POST', '/products/reserve_item_labels', { no: '3', label: 'Other' }), 400)).toEqual(
      badRequest('[no] free-item label 3 already exists'),
    );
    expect((await t.api('GET', '/products/reserve_item_labels/3')).json().label).toBe('Supplier');
  });

  it('takes numbers 1 to 50 only and names every bad field', async () => {
    for (const ok of ['1', '9', '10', '49', '50']) await label(ok, `L${ok}`);
    for (const bad of ['0', '51', '03', '-1', 'x', '', '1.0']) {
      expect(problem(await t.api('POST', '/products/reserve_item_labels', { no: bad, label: 'L' }), 400).detail, bad).toBe('[no] must be 1 to 50');
    }
    expect(problem(await t.api('POST', '/products/reserve_item_labels', { no: 2, label: 'L' }), 400).detail).toBe(
      '[no] Invalid input: expected string, received number',
    );
    expect(problem(await t.api('POST', '/products/reserve_item_labels', {}), 400).detail).toBe('[no] is required; [label] is required');
    expect(problem(await t.api('POST', '/products/reserve_item_labels', { no: '2', label: ' ', extra: 1 }), 400).detail).toBe(
      '[label] must not be empty; [extra] is not a known field',
    );
    expect(problem(await t.api('POST', '/products/reserve_item_labels', { no: '2', label: 'x'.repeat(86) }), 400).detail).toBe(
      '[label] must be at most 85 characters',
    );
    expect((await t.api('GET', '/products/reserve_item_labels')).json()).toHaveLength(5);
  });

  it('lists every label in number order without paging', async () => {
    await label('10', 'Ten');
    await label('2', 'Two');
    await label('1', 'One');
    const res = await t.api('GET', '/products/reserve_item_labels');
    expect(res.statusCode).toBe(200);
    expect(res.headers.link).toBeUndefined();
    expect(res.json().map((l: { no: string }) => l.no)).toEqual(['1', '2', '10']);
    expect(problem(await t.api('GET', '/products/reserve_item_labels?limit=1'), 400).detail).toBe('[limit] is not a known field');
  });

  it('renames a label with PATCH; 404 when absent; an empty PATCH is a 400', async () => {
    await label('4', 'Season');
    t.clock.advance(60_000);
    const res = await t.api('PATCH', '/products/reserve_item_labels/4', { label: 'Collection' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ no: '4', label: 'Collection', insDateTime: AT_T0, updDateTime: AT_T0_PLUS_1MIN });
    expect(problem(await t.api('PATCH', '/products/reserve_item_labels/4', {}), 400).detail).toBe('[body] no field to update was given');
    expect(problem(await t.api('PATCH', '/products/reserve_item_labels/4', { label: '' }), 400).detail).toBe('[label] must not be empty');
    expect(problem(await t.api('PATCH', '/products/reserve_item_labels/4', { no: '5' }), 400).detail).toBe(
      '[no] is not a known field; [body] no field to update was given',
    );
    expect(problem(await t.api('PATCH', '/products/reserve_item_labels/5', { label: 'X' }), 404)).toEqual(
      notFound('[no] free-item label 5 does not exist'),
    );
    expect(problem(await t.api('GET', '/products/reserve_item_labels/5'), 404).detail).toBe('[no] free-item label 5 does not exist');
  });

  describe('DELETE /products/reserve_item_labels/:no (spec 4.18)', () => {
    it('deletes an unused label with 204 and no body', async () => {
      await label('7', 'Material');
      const res = await t.api('DELETE', '/products/reserve_item_labels/7');
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(problem(await t.api('GET', '/products/reserve_item_labels/7'), 404).detail).toBe('[no] free-item label 7 does not exist');
      // the number is free again
      await label('7', 'Material again');
    });

    it('is a 400 naming a product while a product uses the label, and deletes nothing', async () => {
      await label('1', 'Supplier');
      const first = await productWith('P1', [{ no: '1', value: 'ACME' }]);
      expect(problem(await t.api('DELETE', '/products/reserve_item_labels/1'), 400)).toEqual(
        badRequest(`[no] free-item label 1 is in use by product ${first}`),
      );
      const second = await productWith('P2', [{ no: '1', value: 'Globex' }]);
      await productWith('P3', [{ no: '1', value: 'Initech' }]);
      expect(problem(await t.api('DELETE', '/products/reserve_item_labels/1'), 400).detail).toBe(
        `[no] free-item label 1 is in use by product ${first} and 2 other products`,
      );
      await t.api('DELETE', `/products/${first}`);
      await t.api('PATCH', `/products/${second}`, { reserveItems: [] });
      expect(problem(await t.api('DELETE', '/products/reserve_item_labels/1'), 400).detail).toMatch(/in use by product \d+$/);
      expect((await t.api('GET', '/products/reserve_item_labels/1')).statusCode).toBe(200);
    });

    it('deletes the label once no product uses it any more', async () => {
      await label('1', 'Supplier');
      const p = await productWith('P1', [{ no: '1', value: 'ACME' }]);
      await t.api('PATCH', `/products/${p}`, { reserveItems: [] });
      expect((await t.api('DELETE', '/products/reserve_item_labels/1')).statusCode).toBe(204);
    });

    it('is a 404 for an absent label and a 400 for a malformed number', async () => {
      expect(problem(await t.api('DELETE', '/products/reserve_item_labels/12'), 404)).toEqual(notFound('[no] free-item label 12 does not exist'));
      for (const bad of ['0', '51', '012', 'abc', '1.5']) {
        expect(problem(await t.api('DELETE', `/products/reserve_item_labels/${bad}`), 400), bad).toEqual(badRequest('[no] must be 1 to 50'));
      }
    });

    it('is not taken by DELETE /products/:product_id (the static segment wins)', async () => {
      await label('2', 'Season');
      const p = await productWith('P1', []);
      expect((await t.api('DELETE', '/products/reserve_item_labels/2')).statusCode).toBe(204);
      expect((await t.api('GET', `/products/${p}`)).statusCode).toBe(200);
      // and GET /products/reserve_item_labels is the label list, not product "reserve_item_labels"
      expect((await t.api('GET', '/products/reserve_item_labels')).json()).toEqual([]);
    });

    it('is refused to an enterprise contract (403) while the supporting operations stay open', async () => {
      await t.close();
      t = await makeTestApp({ plan: 'enterprise' });
      await label('1', 'Supplier');
      expect((await t.api('GET', '/products/reserve_item_labels')).statusCode).toBe(200);
      expect((await t.api('PATCH', '/products/reserve_item_labels/1', { label: 'S' })).statusCode).toBe(200);
      expect(problem(await t.api('DELETE', '/products/reserve_item_labels/1'), 403).detail).toBe(
        "the contract's plan enterprise cannot use DELETE /products/reserve_item_labels/{no} " +
          '(plans: standard, premium, premium_plus, food_business, retail_business)',
      );
      expect((await t.api('GET', '/products/reserve_item_labels/1')).statusCode).toBe(200);
    });

    it('is allowed to each of the five plans', async () => {
      for (const plan of ['standard', 'premium', 'premium_plus', 'food_business', 'retail_business'] as const) {
        await t.close();
        t = await makeTestApp({ plan });
        await label('1', 'Supplier');
        expect((await t.api('DELETE', '/products/reserve_item_labels/1')).statusCode, plan).toBe(204);
      }
    });
  });

  it('needs pos.products:write to write and pos.products:read to read', async () => {
    await label('1', 'Supplier');
    const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
    const detail = '[scope] the token lacks the scope pos.products:write';
    expect(problem(await t.api('POST', '/products/reserve_item_labels', { no: '2', label: 'L' }, reader), 403).detail).toBe(detail);
    expect(problem(await t.api('PATCH', '/products/reserve_item_labels/1', { label: 'L' }, reader), 403).detail).toBe(detail);
    expect(problem(await t.api('DELETE', '/products/reserve_item_labels/1', undefined, reader), 403).detail).toBe(detail);
    expect((await t.api('GET', '/products/reserve_item_labels', undefined, reader)).statusCode).toBe(200);
    const writer = await t.tokenFor({ scopes: ['pos.products:write'] });
    expect(problem(await t.api('GET', '/products/reserve_item_labels', undefined, writer), 403).detail).toBe(
      '[scope] the token lacks the scope pos.products:read',
    );
  });

  it('keeps labels per contract and reports every change', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    t.addContract('other', 'standard');
    const other = await t.tokenFor({ contractId: 'other' });
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/other/pos/products/reserve_item_labels',
      headers: { authorization: `Bearer ${other}` },
      payload: { no: '1', label: 'Theirs' },
    });
    expect(theirs.statusCode).toBe(200);
    expect(problem(await t.api('GET', '/products/reserve_item_labels/1'), 404).detail).toBe('[no] free-item label 1 does not exist');
    await label('1', 'Mine');
    await t.api('PATCH', '/products/reserve_item_labels/1', { label: 'Mine 2' });
    await t.api('DELETE', '/products/reserve_item_labels/1');
    expect(changes.filter((c) => c.entity.startsWith('product')).map((c) => `${c.contractId} ${c.entity} ${c.op} ${c.id}`)).toEqual([
      'other product_reserve_item_label insert 1',
      'test-contract product_reserve_item_label insert 1',
      'test-contract product_reserve_item_label update 1',
      'test-contract product_reserve_item_label delete 1',
    ]);
  });
});
