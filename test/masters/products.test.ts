import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { Product } from '../../server/masters/products/schema.js';
import type { Plan } from '../../server/domain/plans.js';
import { seedProducts } from '../../server/seed/demo-products.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const LINK_BASE = 'http://localhost/test-contract/pos/products';
const badRequest = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const PRICE_RULE = 'must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals';
const COST_RULE = 'must be a non-negative decimal string of up to 8 integer digits and up to 5 decimals';

describe('products', () => {
  let t: TestApp;
  let cat: string;
  let cat2: string;
  beforeEach(async () => {
    t = await makeTestApp();
    cat = (await t.api('POST', '/categories', { categoryName: 'Tops' })).json().categoryId; // 1001
    cat2 = (await t.api('POST', '/categories', { categoryName: 'Bottoms' })).json().categoryId; // 2001
    for (const [no, label] of [['1', 'Supplier'], ['2', 'Season'], ['3', 'Material']]) {
      await t.api('POST', '/products/reserve_item_labels', { no, label });
    }
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, unknown>): Promise<Product> => {
    const res = await t.api('POST', '/products', { categoryId: cat, productName: 'Tee', price: '1000', ...body });
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  describe('POST /products', () => {
    it('creates a product with defaults and nulls for unset fields', async () => {
      const res = await t.api('POST', '/products', { categoryId: cat, productCode: 'T-001', productName: 'Tee', price: '1500' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        productId: '1001',
        categoryId: cat,
        productCode: 'T-001',
        productName: 'Tee',
        price: '1500',
        cost: null,
        taxDivision: '0',
        reduceTaxId: null,
        pointNotApplicable: '0',
        taxFreeDivision: '0',
        productDivision: '0',
        productOptionGroupId: null,
        reserveItems: [],
        insDateTime: AT_T0,
        updDateTime: AT_T0,
      });
    });

    it('stores every settable field, money exactly and free items in label order', async () => {
      const p = await create({
        productCode: 'RICE-5KG',
        productName: 'Rice 5 kg',
        price: '0002980.500',
        cost: '1234.56789',
        taxDivision: '1',
        reduceTaxId: '10000001',
        pointNotApplicable: '1',
        taxFreeDivision: '2',
        productDivision: '5',
        reserveItems: [
          { no: '3', value: 'Paper bag' },
          { no: '1', value: 'ACME Farms' },
        ],
      });
      expect(p).toMatchObject({
        price: '2980.5',
        cost: '1234.56789',
        taxDivision: '1',
        reduceTaxId: '10000001',
        pointNotApplicable: '1',
        taxFreeDivision: '2',
        productDivision: '5',
        reserveItems: [
          { no: '1', value: 'ACME Farms' },
          { no: '3', value: 'Paper bag' },
        ],
      });
      expect((await t.api('GET', `/products/${p.productId}`)).json()).toEqual(p);
      expect((await create({ productCode: 'MAX', price: '999999999.999', cost: '99999999.99999' })).price).toBe('999999999.999');
      expect((await create({ productCode: 'FREE', price: '0', cost: '0.00' })).cost).toBe('0');
    });

    it('requires categoryId, productCode, productName and price', async () => {
      expect(problem(await t.api('POST', '/products', {}), 400)).toEqual(
        badRequest('[categoryId] is required; [productCode] is required; [productName] is required; [price] is required'),
      );
      expect(problem(await t.api('POST', '/products'), 400).detail).toBe('[body] is required');
    });

    it('names every bad field', async () => {
      const body = problem(
        await t.api('POST', '/products', {
          categoryId: 'x',
          productCode: 'has space',
          productName: ' ',
          price: '1.0001',
          cost: '-1',
          taxDivision: '3',
          reduceTaxId: '10000005',
          pointNotApplicable: '2',
          taxFreeDivision: '9',
          productDivision: '9',
          reserveItems: [{ no: '51', value: '' }],
          productId: '1',
        }),
        400,
      );
      expect(body.detail).toBe(
        '[categoryId] must be 1 to 9 digits; [productCode] must be 1 to 20 half-width alphanumerics or symbols; ' +
          `[productName] must not be empty; [price] ${PRICE_RULE}; [cost] ${COST_RULE}; ` +
          '[taxDivision] must be one of 0, 1, 2; [reduceTaxId] must be null or one of 10000001, 10000002, 10000003, 10000004; ' +
          '[pointNotApplicable] must be one of 0, 1; [taxFreeDivision] must be one of 0, 1, 2; ' +
          '[productDivision] must be one of 0, 1, 2, 3, 4, 5, 6, 7, 8; [reserveItems[0].no] must be 1 to 50; ' +
          '[reserveItems[0].value] must not be empty; [productId] is not a known field',
      );
    });

    it('takes money only as plain decimal strings within the digits', async () => {
      for (const bad of ['1e3', '1,000', '+1', '.5', '1000000000', '-0.5', '', ' 1']) {
        expect(problem(await t.api('POST', '/products', { categoryId: cat, productCode: 'A', productName: 'A', price: bad }), 400).detail, bad).toBe(
          `[price] ${PRICE_RULE}`,
        );
      }
      expect(problem(await t.api('POST', '/products', { categoryId: cat, productCode: 'A', productName: 'A', price: 100 }), 400).detail).toBe(
        '[price] Invalid input: expected string, received number',
      );
      expect(problem(await t.api('POST', '/products', { categoryId: cat, productCode: 'A', productName: 'A', price: '1', cost: '123456789' }), 400).detail).toBe(
        `[cost] ${COST_RULE}`,
      );
    });

    it('limits the code to 20 half-width characters and the name to 85 characters', async () => {
      expect((await create({ productCode: 'C'.repeat(20), productName: 'あ'.repeat(85) })).productName).toBe('あ'.repeat(85));
      expect(problem(await t.api('POST', '/products', { categoryId: cat, productCode: 'C'.repeat(21), productName: 'A', price: '1' }), 400).detail).toBe(
        '[productCode] must be 1 to 20 half-width alphanumerics or symbols',
      );
      expect(problem(await t.api('POST', '/products', { categoryId: cat, productCode: 'Ａ', productName: 'A', price: '1' }), 400).detail).toBe(
        '[productCode] must be 1 to 20 half-width alphanumerics or symbols',
      );
      expect(problem(await t.api('POST', '/products', { categoryId: cat, productCode: 'B', productName: 'x'.repeat(86), price: '1' }), 400).detail).toBe(
        '[productName] must be at most 85 characters',
      );
    });

    it('refuses a product code already used, a missing category and a missing label, writing nothing', async () => {
      await create({ productCode: 'DUP' });
      expect(problem(await t.api('POST', '/products', { categoryId: cat, productCode: 'DUP', productName: 'B', price: '1' }), 400)).toEqual(
        badRequest('[productCode] product code DUP is already used by product 1001'),
      );
      expect(problem(await t.api('POST', '/products', { categoryId: '999999', productCode: 'N1', productName: 'B', price: '1' }), 400)).toEqual(
        badRequest('[categoryId] category 999999 does not exist'),
      );
      const missingLabel = { categoryId: cat, productCode: 'N2', productName: 'B', price: '1', reserveItems: [{ no: '1', value: 'v' }, { no: '9', value: 'v' }] };
      expect(problem(await t.api('POST', '/products', missingLabel), 400)).toEqual(badRequest('[reserveItems[1].no] free-item label 9 does not exist'));
      const twice = { ...missingLabel, reserveItems: [{ no: '2', value: 'a' }, { no: '2', value: 'b' }] };
      expect(problem(await t.api('POST', '/products', twice), 400).detail).toBe('[reserveItems[1].no] free item 2 is given twice');
      expect((await t.api('GET', '/products')).json()).toHaveLength(1);
    });

    it('accepts the four reduced-tax ids, null and "" (standard rate)', async () => {
      for (const [i, id] of ['10000001', '10000002', '10000003', '10000004'].entries()) {
        expect((await create({ productCode: `R${i}`, reduceTaxId: id })).reduceTaxId).toBe(id);
      }
      expect((await create({ productCode: 'N', reduceTaxId: null })).reduceTaxId).toBeNull();
      expect((await create({ productCode: 'E', reduceTaxId: '' })).reduceTaxId).toBeNull();
    });

    it('does not see a category or a label of another contract', async () => {
      t.addContract('other', 'standard');
      const other = await t.tokenFor({ contractId: 'other' });
      const call = (method: string, path: string, payload?: object) =>
        t.app.inject({ method: method as 'POST', url: `/other/pos${path}`, headers: { authorization: `Bearer ${other}` }, ...(payload ? { payload } : {}) });
      const theirs = (await call('POST', '/categories', { categoryName: 'Theirs' })).json().categoryId;
      expect(problem(await t.api('POST', '/products', { categoryId: theirs, productCode: 'X', productName: 'X', price: '1' }), 400).detail).toBe(
        `[categoryId] category ${theirs} does not exist`,
      );
      await call('POST', '/products/reserve_item_labels', { no: '20', label: 'Theirs' });
      expect(problem(await t.api('POST', '/products', { categoryId: cat, productCode: 'X', productName: 'X', price: '1', reserveItems: [{ no: '20', value: 'v' }] }), 400).detail).toBe(
        '[reserveItems[0].no] free-item label 20 does not exist',
      );
      // product codes are unique per contract only
      const mine = await create({ productCode: 'SAME' });
      const res = await call('POST', '/products', { categoryId: theirs, productCode: 'SAME', productName: 'X', price: '1' });
      expect(res.statusCode).toBe(200);
      expect(problem(await t.api('GET', `/products/${res.json().productId}`), 404).detail).toBe(`[product_id] product ${res.json().productId} does not exist`);
      expect((await t.api('GET', `/products/${mine.productId}`)).statusCode).toBe(200);
    });
  });

  describe('GET /products/:product_id', () => {
    it('is a 404 for an absent product and a 400 for a malformed id', async () => {
      expect(problem(await t.api('GET', '/products/12345'), 404)).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: '[product_id] product 12345 does not exist',
      });
      expect(problem(await t.api('GET', '/products/abc'), 400).detail).toBe('[product_id] must be 1 to 9 digits');
      expect(problem(await t.api('GET', '/products/1234567890'), 400).detail).toBe('[product_id] must be 1 to 9 digits');
    });
  });

  describe('PATCH /products/:product_id', () => {
    it('changes only the keys sent and stamps updDateTime', async () => {
      const p = await create({ productCode: 'A1', cost: '500', reserveItems: [{ no: '1', value: 'ACME' }] });
      t.clock.advance(60_000);
      const res = await t.api('PATCH', `/products/${p.productId}`, { price: '1200.25', categoryId: cat2, taxDivision: '2' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ...p, price: '1200.25', categoryId: cat2, taxDivision: '2', updDateTime: AT_T0_PLUS_1MIN });
    });

    it('replaces the whole free-item list when reserveItems is sent, and clears cost with null or ""', async () => {
      const p = await create({ productCode: 'A1', cost: '500', reserveItems: [{ no: '1', value: 'ACME' }, { no: '2', value: 'Summer' }] });
      t.clock.advance(60_000);
      const res = await t.api('PATCH', `/products/${p.productId}`, { reserveItems: [{ no: '3', value: 'Cotton' }] });
      expect(res.json()).toMatchObject({ reserveItems: [{ no: '3', value: 'Cotton' }], updDateTime: AT_T0_PLUS_1MIN });
      expect((await t.api('PATCH', `/products/${p.productId}`, { reserveItems: [] })).json().reserveItems).toEqual([]);
      expect((await t.api('PATCH', `/products/${p.productId}`, { cost: null })).json().cost).toBeNull();
      await t.api('PATCH', `/products/${p.productId}`, { cost: '1' });
      expect((await t.api('PATCH', `/products/${p.productId}`, { cost: '' })).json().cost).toBeNull();
    });

    it('keeps its own code but refuses another product’s', async () => {
      const a = await create({ productCode: 'A1' });
      await create({ productCode: 'B1' });
      expect((await t.api('PATCH', `/products/${a.productId}`, { productCode: 'A1' })).statusCode).toBe(200);
      expect(problem(await t.api('PATCH', `/products/${a.productId}`, { productCode: 'B1' }), 400).detail).toBe(
        '[productCode] product code B1 is already used by product 2001',
      );
    });

    it('refuses an empty body, unknown keys, clearing required fields and missing references, changing nothing', async () => {
      const p = await create({ productCode: 'A1', reserveItems: [{ no: '1', value: 'ACME' }] });
      const patch = (body: unknown) => t.api('PATCH', `/products/${p.productId}`, body);
      expect(problem(await patch({}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await patch({ stock: '1' }), 400).detail).toBe('[stock] is not a known field; [body] no field to update was given');
      expect(problem(await patch({ price: null }), 400).detail).toBe('[price] Invalid input: expected string, received null');
      expect(problem(await patch({ productName: '' }), 400).detail).toBe('[productName] must not be empty');
      expect(problem(await patch({ price: '5', categoryId: '999' }), 400).detail).toBe('[categoryId] category 999 does not exist');
      expect(problem(await patch({ price: '5', reserveItems: [{ no: '44', value: 'v' }] }), 400).detail).toBe(
        '[reserveItems[0].no] free-item label 44 does not exist',
      );
      expect((await t.api('GET', `/products/${p.productId}`)).json()).toEqual(p);
    });

    it('checks the product (404) before the body references (400)', async () => {
      expect(problem(await t.api('PATCH', '/products/777', { categoryId: '999' }), 404).detail).toBe('[product_id] product 777 does not exist');
      expect(problem(await t.api('PATCH', '/products/x', { price: '1' }), 400).detail).toBe('[product_id] must be 1 to 9 digits');
    });
  });

  describe('DELETE /products/:product_id', () => {
    it('deletes the product and its free-item values with 204; 404 afterwards', async () => {
      const p = await create({ productCode: 'A1', reserveItems: [{ no: '1', value: 'ACME' }] });
      const res = await t.api('DELETE', `/products/${p.productId}`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(problem(await t.api('DELETE', `/products/${p.productId}`), 404).detail).toBe(`[product_id] product ${p.productId} does not exist`);
      // the label is free again, and so is the code
      expect((await t.api('DELETE', '/products/reserve_item_labels/1')).statusCode).toBe(204);
      expect((await create({ productCode: 'A1' })).productCode).toBe('A1');
    });
  });

  describe('GET /products', () => {
    const seed = async () => {
      await create({ productCode: 'C', price: '300', categoryId: cat });
      await create({ productCode: 'A', price: '1000.5', categoryId: cat2, productDivision: '4' });
      await create({ productCode: 'B', price: '99', categoryId: cat });
      await create({ productCode: 'D', price: '1000.25', categoryId: cat, reserveItems: [{ no: '2', value: 'Winter' }] });
    };
    const codes = (res: { json(): unknown }) => (res.json() as Product[]).map((p) => p.productCode);

    it('lists by productId by default, with free items, and without a Link when one page holds all', async () => {
      await seed();
      const res = await t.api('GET', '/products');
      expect(res.statusCode).toBe(200);
      expect(res.headers.link).toBeUndefined();
      expect(codes(res)).toEqual(['C', 'A', 'B', 'D']);
      expect((res.json() as Product[])[3]!.reserveItems).toEqual([{ no: '2', value: 'Winter' }]);
    });

    it('sorts by price as a number, by code, and descending', async () => {
      await seed();
      expect(codes(await t.api('GET', '/products?sort=price'))).toEqual(['B', 'C', 'D', 'A']);
      expect(codes(await t.api('GET', '/products?sort=price:desc'))).toEqual(['A', 'D', 'C', 'B']);
      expect(codes(await t.api('GET', '/products?sort=productCode'))).toEqual(['A', 'B', 'C', 'D']);
      expect(codes(await t.api('GET', '/products?sort=categoryId:desc,productCode'))).toEqual(['A', 'B', 'C', 'D']);
      expect(problem(await t.api('GET', '/products?sort=productName'), 400).detail).toBe(
        '[sort] productName is not a sort key; use productId, productCode, price, categoryId, updDateTime with an optional :desc',
      );
    });

    it('filters by category, code and division', async () => {
      await seed();
      expect(codes(await t.api('GET', `/products?category_id=${cat}`))).toEqual(['C', 'B', 'D']);
      expect(codes(await t.api('GET', '/products?product_code=B'))).toEqual(['B']);
      expect(codes(await t.api('GET', '/products?product_division=4'))).toEqual(['A']);
      expect(codes(await t.api('GET', '/products?category_id=424242'))).toEqual([]);
      expect(problem(await t.api('GET', '/products?category_id=x'), 400).detail).toBe('[category_id] must be 1 to 9 digits');
      expect(problem(await t.api('GET', '/products?name=A'), 400).detail).toBe('[name] is not a known field');
    });

    it('pages with absolute prev/next links that keep the other query parameters', async () => {
      await seed();
      const first = await t.api('GET', '/products?limit=2&sort=price');
      expect(codes(first)).toEqual(['B', 'C']);
      expect(first.headers.link).toBe(`<${LINK_BASE}?limit=2&sort=price&page=2>; rel="next"`);
      const last = await t.api('GET', '/products?limit=2&sort=price&page=2');
      expect(codes(last)).toEqual(['D', 'A']);
      expect(last.headers.link).toBe(`<${LINK_BASE}?limit=2&sort=price&page=1>; rel="prev"`);
      const middle = await t.api('GET', '/products?limit=1&page=2');
      expect(middle.headers.link).toBe(`<${LINK_BASE}?limit=1&page=1>; rel="prev", <${LINK_BASE}?limit=1&page=3>; rel="next"`);
      expect(problem(await t.api('GET', '/products?limit=1001'), 400).detail).toBe('[limit] limit must be at most 1000');
    });
  });

  it('needs pos.products:write to write and pos.products:read to read', async () => {
    const p = await create({ productCode: 'A1' });
    const reader = await t.tokenFor({ scopes: ['pos.products:read'] });
    const detail = '[scope] the token lacks the scope pos.products:write';
    expect(problem(await t.api('POST', '/products', { categoryId: cat, productCode: 'B', productName: 'B', price: '1' }, reader), 403).detail).toBe(detail);
    expect(problem(await t.api('PATCH', `/products/${p.productId}`, { price: '1' }, reader), 403).detail).toBe(detail);
    expect(problem(await t.api('DELETE', `/products/${p.productId}`, undefined, reader), 403).detail).toBe(detail);
    expect((await t.api('GET', `/products/${p.productId}`, undefined, reader)).statusCode).toBe(200);
    const writer = await t.tokenFor({ scopes: ['pos.products:write'] });
    expect(problem(await t.api('GET', '/products', undefined, writer), 403).detail).toBe('[scope] the token lacks the scope pos.products:read');
  });

  it('is open to every plan, enterprise included (supporting endpoints)', async () => {
    await t.close();
    t = await makeTestApp({ plan: 'enterprise' });
    cat = (await t.api('POST', '/categories', { categoryName: 'Tops' })).json().categoryId;
    const p = await create({ productCode: 'E1' });
    expect((await t.api('GET', `/products/${p.productId}`)).statusCode).toBe(200);
    expect((await t.api('PATCH', `/products/${p.productId}`, { price: '2' })).statusCode).toBe(200);
    expect((await t.api('DELETE', `/products/${p.productId}`)).statusCode).toBe(204);
  });

  it('reports every change', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const p = await create({ productCode: 'A1' });
    await t.api('PATCH', `/products/${p.productId}`, { reserveItems: [{ no: '1', value: 'v' }] });
    await t.api('PATCH', `/products/${p.productId}`, { categoryId: '999' }); // refused: no change
    await t.api('DELETE', `/products/${p.productId}`);
    expect(changes.map((c) => `${c.contractId} ${c.entity} ${c.op} ${c.id}`)).toEqual([
      'test-contract product insert 1001',
      'test-contract product update 1001',
      'test-contract product delete 1001',
    ]);
  });
});

describe('demo products seed', () => {
  const CODES = {
    retail: ['APP', 'APP-TOP', 'APP-TOP-TEE', 'APP-TOP-SHIRT', 'APP-BTM', 'ACC', 'SNK'],
    food: ['DRK', 'DRK-COF', 'DRK-ALC', 'FOD', 'FOD-PST', 'FOD-DST'],
  };

  for (const plan of ['retail_business', 'food_business'] as Plan[]) {
    it(`gives ${plan} labels, products and two months of budgets to show`, async () => {
      const t = await makeTestApp({ plan });
      try {
        const storeIds = [] as string[];
        for (const storeName of ['Main', 'Second']) storeIds.push((await t.api('POST', '/stores', { storeName })).json().storeId);
        const categoryIds: Record<string, string> = {};
        for (const code of CODES[plan === 'food_business' ? 'food' : 'retail']) {
          categoryIds[code] = (await t.api('POST', '/categories', { categoryName: code, categoryCode: code })).json().categoryId;
        }
        const counts = seedProducts(t.deps, { contractId: t.contractId, plan, storeIds: storeIds as [string, string], categoryIds });
        // the test clock is 2026-11-22 in Tokyo: November and December
        expect(counts).toEqual({ productLabels: 5, products: plan === 'food_business' ? 10 : 11, budgetDays: 30 + 31 });

        const labels = (await t.api('GET', '/products/reserve_item_labels')).json() as { no: string }[];
        expect(labels.map((l) => l.no)).toEqual(['1', '2', '3', '4', '5']);
        const products = (await t.api('GET', '/products')).json() as Product[];
        expect(products).toHaveLength(counts.products!);
        const used = new Set(products.flatMap((p) => p.reserveItems.map((i) => i.no)));
        expect([...used].sort()).toEqual(['1', '2', '3', '4']);
        expect((await t.api('GET', `/products?category_id=${Object.values(categoryIds).at(-1)}`)).json().length).toBeGreaterThan(0);
        // label 5 is unused, so the spec's delete can be shown; a used one is refused
        expect(problem(await t.api('DELETE', '/products/reserve_item_labels/1'), 400).detail).toMatch(/^\[no\] free-item label 1 is in use by product \d+/);
        expect((await t.api('DELETE', '/products/reserve_item_labels/5')).statusCode).toBe(204);

        const nov = (await t.api('GET', `/budget/${storeIds[0]}/2026/11`)).json();
        expect(nov.days).toHaveLength(30);
        expect(nov.days[0]).toMatchObject({ date: '2026-11-01', customerCountTarget: expect.any(String) }); // a Sunday
        expect(nov.days[0].salesTarget).not.toBe(nov.days[1].salesTarget); // weekend vs weekday
        expect((await t.api('GET', `/budget/${storeIds[0]}/2026/12`)).json().days).toHaveLength(31);
        expect(problem(await t.api('GET', `/budget/${storeIds[1]}/2026/11`), 404).status).toBe(404);
        expect((await t.api('DELETE', `/budget/${storeIds[0]}/2026/12`)).statusCode).toBe(204);
      } finally {
        await t.close();
      }
    });
  }

  it('rolls the next month over the year end', async () => {
    const t = await makeTestApp();
    try {
      const store = (await t.api('POST', '/stores', { storeName: 'Main' })).json().storeId;
      const categoryIds: Record<string, string> = {};
      for (const code of CODES.retail) categoryIds[code] = (await t.api('POST', '/categories', { categoryName: code, categoryCode: code })).json().categoryId;
      t.clock.set('2026-12-31T20:00:00Z'); // 2027-01-01 05:00 in Tokyo
      seedProducts(t.deps, { contractId: t.contractId, plan: 'retail_business', storeIds: [store, store], categoryIds });
      const token = await t.tokenFor(); // the first one has expired by now
      expect((await t.api('GET', '/budget', undefined, token)).json().map((d: { date: string }) => d.date.slice(0, 7)).filter((v: string, i: number, a: string[]) => a.indexOf(v) === i)).toEqual([
        '2027-01',
        '2027-02',
      ]);
    } finally {
      await t.close();
    }
  });
});
