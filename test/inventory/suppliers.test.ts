import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { ProductOrderSettingRepo } from '../../server/inventory/product-order-settings/repo.js';
import { SupplierRepo } from '../../server/inventory/suppliers/repo.js';
import { parseCommand, UsageError } from '../../server/cli/args.js';
import { makeTestApp, okOf, problem, type TestApp } from '../helpers/app.js';

/** Issue 14 item 1: suppliers, what they handle, per-store ordering settings and the contract's inventory settings. */

const AT_10_00 = '2026-11-22T10:00:00+09:00';

describe('suppliers', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ plan: 'retail_business' });
  });
  afterEach(() => t.close());

  const ok = okOf((method, path, body) => t.api(method, path, body));
  const category = async (name = 'Food') => (await ok('POST', '/categories', { categoryName: name })).categoryId as string;
  const product = async (categoryId: string, code: string) =>
    (await ok('POST', '/products', { categoryId, productCode: code, productName: code, price: '100' })).productId as string;

  describe('POST, GET, PATCH, DELETE /suppliers', () => {
    it('registers a supplier with defaults and every field', async () => {
      expect(await ok('POST', '/suppliers', { supplierName: 'Acme' })).toEqual({
        supplierId: '1001',
        supplierCode: null,
        supplierName: 'Acme',
        supplierAbbr: null,
        postCode: null,
        address: null,
        phoneNumber: null,
        faxNumber: null,
        mailAddress: null,
        displaySequence: null,
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
      const full = {
        supplierCode: 'SUP-2',
        supplierName: 'Beta Trading',
        supplierAbbr: 'Beta',
        postCode: '150-0001',
        address: 'Tokyo',
        phoneNumber: '03-1234-5678',
        faxNumber: '03-1234-5679',
        mailAddress: 'order@beta.example',
        displaySequence: '0012',
      };
      expect(await ok('POST', '/suppliers', full)).toEqual({ ...full, displaySequence: '12', supplierId: '2001', insDateTime: AT_10_00, updDateTime: AT_10_00 });
      expect(await ok('GET', '/suppliers/2001?fields=supplierName,supplierCode')).toEqual({ supplierCode: 'SUP-2', supplierName: 'Beta Trading' });
    });

    it('names every bad field and refuses unknown keys', async () => {
      const body = problem(
        await t.api('POST', '/suppliers', {
          supplierName: ' ',
          supplierCode: 'with space',
          postCode: '1500001999',
          phoneNumber: 'call me',
          mailAddress: 'nobody',
          displaySequence: 'x',
        }),
        400,
      );
      expect(body.detail).toBe(
        '[supplierName] must not be empty; [supplierCode] must be 1 to 20 half-width alphanumerics or symbols; ' +
          '[postCode] must be 1 to 8 digits or hyphens; [phoneNumber] must be 1 to 20 digits or hyphens; ' +
          '[mailAddress] must be a mail address; [displaySequence] must be 1 to 9 digits',
      );
      expect(problem(await t.api('POST', '/suppliers', {}), 400).detail).toBe('[supplierName] is required');
      expect(problem(await t.api('POST', '/suppliers', { supplierName: 'A', supplierDivisionId: '1' }), 400).detail).toBe(
        '[supplierDivisionId] is not a known field',
      );
      expect(problem(await t.api('POST', '/suppliers', { supplierName: 'x'.repeat(86) }), 400).detail).toBe('[supplierName] must be at most 85 characters');
    });

    it('keeps supplier codes unique in the contract', async () => {
      await ok('POST', '/suppliers', { supplierName: 'A', supplierCode: 'S1' });
      const b = await ok('POST', '/suppliers', { supplierName: 'B' });
      expect(problem(await t.api('POST', '/suppliers', { supplierName: 'C', supplierCode: 'S1' }), 400).detail).toBe(
        '[supplierCode] supplier code S1 is already used by supplier 1001',
      );
      expect(problem(await t.api('PATCH', `/suppliers/${b.supplierId}`, { supplierCode: 'S1' }), 400).detail).toBe(
        '[supplierCode] supplier code S1 is already used by supplier 1001',
      );
      // Its own code again is no conflict.
      expect((await ok('PATCH', '/suppliers/1001', { supplierCode: 'S1' })).supplierCode).toBe('S1');
    });

    it('PATCH changes only the keys sent, clears with null or "", and 404s', async () => {
      await ok('POST', '/suppliers', { supplierName: 'A', address: 'Osaka', phoneNumber: '06-1111-2222' });
      t.clock.advance(60_000);
      const res = await ok('PATCH', '/suppliers/1001', { supplierName: 'A2', address: null, phoneNumber: '' });
      expect(res).toMatchObject({ supplierName: 'A2', address: null, phoneNumber: null, updDateTime: '2026-11-22T10:01:00+09:00', insDateTime: AT_10_00 });
      expect(problem(await t.api('PATCH', '/suppliers/1001', {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await t.api('PATCH', '/suppliers/1001', { supplierName: null }), 400).detail).toMatch(/^\[supplierName\]/);
      expect(problem(await t.api('PATCH', '/suppliers/9', { supplierName: 'X' }), 404).detail).toBe('[supplier_id] supplier 9 does not exist');
      expect(problem(await t.api('GET', '/suppliers/9'), 404).detail).toBe('[supplier_id] supplier 9 does not exist');
    });

    it('lists with filters, part of the name, sort, paging and the update-time range', async () => {
      await ok('POST', '/suppliers', { supplierName: 'Alpha Foods', supplierCode: 'A', displaySequence: '3' });
      t.clock.advance(60_000);
      await ok('POST', '/suppliers', { supplierName: 'Beta 100%', supplierCode: 'B', displaySequence: '1' });
      await ok('POST', '/suppliers', { supplierName: 'Gamma Foods', supplierCode: 'C', displaySequence: '2' });
      const names = async (query: string) => ((await ok('GET', `/suppliers${query}`)) as { supplierName: string }[]).map((s) => s.supplierName);
      expect(await names('')).toEqual(['Alpha Foods', 'Beta 100%', 'Gamma Foods']);
      expect(await names('?supplier_name=Foods')).toEqual(['Alpha Foods', 'Gamma Foods']);
      expect(await names('?supplier_name=%25')).toEqual(['Beta 100%']); // % is a character, not a wildcard
      expect(await names('?supplier_code=B')).toEqual(['Beta 100%']);
      expect(await names('?supplier_id=3001')).toEqual(['Gamma Foods']);
      expect(await names('?sort=displaySequence:desc')).toEqual(['Alpha Foods', 'Gamma Foods', 'Beta 100%']);
      expect(await names('?upd_date_time-from=2026-11-22T10:00:30%2B09:00')).toEqual(['Beta 100%', 'Gamma Foods']);
      const page = await t.api('GET', '/suppliers?limit=2');
      expect(page.json()).toHaveLength(2);
      expect(page.headers.link).toBe('<http://localhost/test-contract/pos/suppliers?limit=2&page=2>; rel="next"');
      expect(problem(await t.api('GET', '/suppliers?sort=supplierName'), 400).detail).toMatch(/^\[sort\] supplierName is not a sort key/);
      expect(problem(await t.api('GET', '/suppliers?fields=nope'), 400).detail).toBe('[fields] nope is not a supplier field');
    });

    it('DELETE removes the supplier and what it handles (204), then 404', async () => {
      const s = await ok('POST', '/suppliers', { supplierName: 'A' });
      const c = await category();
      await ok('POST', `/suppliers/${s.supplierId}/products`, { categoryId: c });
      const changes: Change[] = [];
      t.deps.writer.onChange((ch) => changes.push(ch));
      expect((await t.api('DELETE', `/suppliers/${s.supplierId}`)).statusCode).toBe(204);
      expect(changes.map((ch) => [ch.entity, ch.id, ch.op])).toEqual([
        ['supplier_product', `${s.supplierId}/1/${c}`, 'delete'],
        ['supplier', s.supplierId, 'delete'],
      ]);
      expect(problem(await t.api('DELETE', `/suppliers/${s.supplierId}`), 404).detail).toBe(`[supplier_id] supplier ${s.supplierId} does not exist`);
    });

    it('is Retail Business only and needs the pos.suppliers scope', async () => {
      t.addContract('food', 'food_business');
      const food = await t.tokenFor({ contractId: 'food' });
      const res = await t.app.inject({ method: 'GET', url: '/food/pos/suppliers', headers: { authorization: `Bearer ${food}` } });
      expect(problem(res, 403).detail).toBe("the contract's plan food_business cannot use GET /suppliers (plans: retail_business)");
      const readOnly = await t.tokenFor({ scopes: ['pos.suppliers:read'] });
      expect((await t.api('GET', '/suppliers', undefined, readOnly)).statusCode).toBe(200);
      expect(problem(await t.api('POST', '/suppliers', { supplierName: 'A' }, readOnly), 403).detail).toMatch(/pos\.suppliers:write/);
      const other = await t.tokenFor({ scopes: ['pos.products:read'] });
      expect(problem(await t.api('GET', '/suppliers', undefined, other), 403).detail).toMatch(/pos\.suppliers:read/);
    });

    it('every write is reported for sync as a master', async () => {
      const changes: Change[] = [];
      t.deps.writer.onChange((ch) => changes.push(ch));
      await ok('POST', '/suppliers', { supplierName: 'A' });
      await ok('PATCH', '/suppliers/1001', { supplierAbbr: 'a' });
      expect(changes.map((ch) => [ch.entity, ch.id, ch.op])).toEqual([
        ['supplier', '1001', 'insert'],
        ['supplier', '1001', 'update'],
      ]);
      expect(t.deps.db.prepare("SELECT entity, entity_id, op FROM outbox WHERE entity = 'supplier' ORDER BY seq").all()).toEqual([
        { entity: 'supplier', entity_id: '1001', op: 'insert' },
        { entity: 'supplier', entity_id: '1001', op: 'update' },
      ]);
    });
  });

  describe('what a supplier handles: /suppliers/{id}/products', () => {
    it('registers categories and products, lists them with filters, and finds a product’s suppliers', async () => {
      const a = (await ok('POST', '/suppliers', { supplierName: 'A' })).supplierId;
      const b = (await ok('POST', '/suppliers', { supplierName: 'B' })).supplierId;
      const food = await category('Food');
      const drink = await category('Drink');
      const bread = await product(food, 'BREAD');
      const cake = await product(food, 'CAKE');
      const tea = await product(drink, 'TEA');
      expect(await ok('POST', `/suppliers/${a}/products`, { categoryId: food })).toEqual({ supplierId: a, categoryId: food, productId: null, insDateTime: AT_10_00 });
      expect(await ok('POST', `/suppliers/${b}/products`, { productId: cake })).toEqual({ supplierId: b, categoryId: null, productId: cake, insDateTime: AT_10_00 });
      await ok('POST', `/suppliers/${a}/products`, { productId: tea });
      expect(await ok('GET', `/suppliers/${a}/products`)).toEqual([
        { supplierId: a, categoryId: food, productId: null, insDateTime: AT_10_00 },
        { supplierId: a, categoryId: null, productId: tea, insDateTime: AT_10_00 },
      ]);
      expect((await ok('GET', `/suppliers/${a}/products?product_id=${tea}`)).map((r: { productId: string }) => r.productId)).toEqual([tea]);
      expect((await ok('GET', `/suppliers/${a}/products?category_id=${food}`)).map((r: { categoryId: string }) => r.categoryId)).toEqual([food]);
      expect(await ok('GET', `/suppliers/${b}/products?category_id=${food}`)).toEqual([]);

      // The repo method purchase orders read: the product's own entries win over its category's.
      const repo = new SupplierRepo(t.deps.db, t.deps.writer, t.deps.ids, t.clock);
      expect(repo.suppliersOfProduct(t.contractId, bread)).toEqual([Number(a)]); // by its category
      expect(repo.suppliersOfProduct(t.contractId, cake)).toEqual([Number(b)]); // its own entry
      expect(repo.supplierOfProduct(t.contractId, tea)).toBe(Number(a));
      const lone = await product(await category('Misc'), 'LONE');
      expect(repo.supplierOfProduct(t.contractId, lone)).toBeNull();
      expect(repo.suppliersOfProduct(t.contractId, '999')).toEqual([]);
    });

    it('refuses a missing target, both or neither id, and a second registration; 404 for an unknown supplier', async () => {
      const a = (await ok('POST', '/suppliers', { supplierName: 'A' })).supplierId;
      const food = await category();
      expect(problem(await t.api('POST', `/suppliers/${a}/products`, { productId: '999' }), 400).detail).toBe('[productId] product 999 does not exist');
      expect(problem(await t.api('POST', `/suppliers/${a}/products`, { categoryId: '999' }), 400).detail).toBe('[categoryId] category 999 does not exist');
      expect(problem(await t.api('POST', `/suppliers/${a}/products`, { categoryId: food, productId: '1' }), 400).detail).toBe(
        '[productId] give exactly one of categoryId and productId',
      );
      expect(problem(await t.api('POST', `/suppliers/${a}/products`, {}), 400).detail).toBe('[productId] give exactly one of categoryId and productId');
      await ok('POST', `/suppliers/${a}/products`, { categoryId: food });
      expect(problem(await t.api('POST', `/suppliers/${a}/products`, { categoryId: food }), 400).detail).toBe(`[categoryId] supplier ${a} already handles category ${food}`);
      expect(problem(await t.api('POST', '/suppliers/9/products', { categoryId: food }), 404).detail).toBe('[supplier_id] supplier 9 does not exist');
      expect(problem(await t.api('GET', '/suppliers/9/products'), 404).detail).toBe('[supplier_id] supplier 9 does not exist');
    });

    it('DELETE names the entry by category_id or product_id: 204, then 404', async () => {
      const a = (await ok('POST', '/suppliers', { supplierName: 'A' })).supplierId;
      const food = await category();
      const bread = await product(food, 'BREAD');
      await ok('POST', `/suppliers/${a}/products`, { categoryId: food });
      await ok('POST', `/suppliers/${a}/products`, { productId: bread });
      expect((await t.api('DELETE', `/suppliers/${a}/products?product_id=${bread}`)).statusCode).toBe(204);
      expect(await ok('GET', `/suppliers/${a}/products`)).toEqual([{ supplierId: a, categoryId: food, productId: null, insDateTime: AT_10_00 }]);
      expect(problem(await t.api('DELETE', `/suppliers/${a}/products?product_id=${bread}`), 404).detail).toBe(`[product_id] supplier ${a} does not handle product ${bread}`);
      expect(problem(await t.api('DELETE', `/suppliers/${a}/products`), 400).detail).toBe('[product_id] give exactly one of category_id and product_id');
      expect((await t.api('DELETE', `/suppliers/${a}/products?category_id=${food}`)).statusCode).toBe(204);
      expect(await ok('GET', `/suppliers/${a}/products`)).toEqual([]);
    });
  });

  describe('ordering settings of a product per store: /products/{id}/order_settings', () => {
    it('defaults, PATCH of the keys sent, the list of stores set, and the repo method purchase orders read', async () => {
      const store = (await ok('POST', '/stores', { storeName: 'Main' })).storeId;
      const other = (await ok('POST', '/stores', { storeName: 'East' })).storeId;
      const p = await product(await category(), 'P1');
      const defaults = { productId: p, storeId: store, orderable: '1', orderHidden: '0', orderLimit: null, insDateTime: null, updDateTime: null };
      expect(await ok('GET', `/products/${p}/order_settings/${store}`)).toEqual(defaults);
      expect(await ok('GET', `/products/${p}/order_settings`)).toEqual([]);

      expect(await ok('PATCH', `/products/${p}/order_settings/${store}`, { orderLimit: '20' })).toEqual({
        ...defaults,
        orderLimit: '20',
        insDateTime: AT_10_00,
        updDateTime: AT_10_00,
      });
      t.clock.advance(60_000);
      expect(await ok('PATCH', `/products/${p}/order_settings/${store}`, { orderable: '0', orderHidden: '1' })).toMatchObject({
        orderable: '0',
        orderHidden: '1',
        orderLimit: '20',
        updDateTime: '2026-11-22T10:01:00+09:00',
      });
      expect((await ok('PATCH', `/products/${p}/order_settings/${store}`, { orderLimit: null })).orderLimit).toBeNull();
      await ok('PATCH', `/products/${p}/order_settings/${other}`, { orderLimit: '0' });
      expect((await ok('GET', `/products/${p}/order_settings`)).map((s: { storeId: string; orderLimit: string | null }) => [s.storeId, s.orderLimit])).toEqual([
        [store, null],
        [other, '0'],
      ]);
      expect((await ok('GET', `/products/${p}/order_settings?store_id=${other}`)).length).toBe(1);

      const repo = new ProductOrderSettingRepo(t.deps.db, t.deps.writer, t.deps.ids, t.clock);
      expect(repo.effective(t.contractId, p, store)).toEqual({ orderable: false, orderHidden: true, orderLimit: null });
      expect(repo.effective(t.contractId, p, other)).toEqual({ orderable: true, orderHidden: false, orderLimit: 0 });
      expect(repo.effective(t.contractId, p, '999')).toEqual({ orderable: true, orderHidden: false, orderLimit: null });
    });

    it('400 for bad values, 404 for an unknown product or store; reported as a master keyed product/store', async () => {
      const store = (await ok('POST', '/stores', { storeName: 'Main' })).storeId;
      const p = await product(await category(), 'P1');
      expect(problem(await t.api('PATCH', `/products/${p}/order_settings/${store}`, { orderable: '2', orderLimit: '-1' }), 400).detail).toBe(
        '[orderable] must be one of 0, 1; [orderLimit] must be 1 to 9 digits',
      );
      expect(problem(await t.api('PATCH', `/products/${p}/order_settings/${store}`, {}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await t.api('PATCH', `/products/999/order_settings/${store}`, { orderable: '0' }), 404).detail).toBe('[product_id] product 999 does not exist');
      expect(problem(await t.api('PATCH', `/products/${p}/order_settings/999`, { orderable: '0' }), 404).detail).toBe('[store_id] store 999 does not exist');
      expect(problem(await t.api('GET', '/products/999/order_settings'), 404).detail).toBe('[product_id] product 999 does not exist');
      const changes: Change[] = [];
      t.deps.writer.onChange((ch) => changes.push(ch));
      await ok('PATCH', `/products/${p}/order_settings/${store}`, { orderable: '0' });
      await ok('PATCH', `/products/${p}/order_settings/${store}`, { orderable: '1' });
      expect(changes.map((ch) => [ch.entity, ch.id, ch.op])).toEqual([
        ['product_order_setting', `${p}/${store}`, 'insert'],
        ['product_order_setting', `${p}/${store}`, 'update'],
      ]);
    });
  });

  describe('contract inventory settings', () => {
    it('default off / allowed / none; set by the repo (the CLI) and read by inventorySettings', () => {
      const contracts = new ContractRepo(t.deps.db, t.deps.writer, t.clock);
      expect(contracts.inventorySettings(t.contractId)).toEqual({ inventoryApproval: false, shippedShipmentEditForbidden: false, orderSplitUnit: '0' });
      contracts.setSettings(t.contractId, { inventoryApproval: true, orderSplitUnit: '2' });
      expect(contracts.inventorySettings(t.contractId)).toEqual({ inventoryApproval: true, shippedShipmentEditForbidden: false, orderSplitUnit: '2' });
      contracts.setSettings(t.contractId, { shippedShipmentEditForbidden: true, orderSplitUnit: '1' });
      expect(contracts.find(t.contractId)!.settings).toMatchObject({ inventoryApproval: true, shippedShipmentEditForbidden: true, orderSplitUnit: '1', maxSalesTerminals: 10 });
      expect(() => contracts.inventorySettings('nope')).toThrow('contract nope does not exist');
    });

    it('contract set takes --inventory-approval, --shipped-shipment-edit and --order-split-unit', () => {
      const set = (...flags: string[]) => parseCommand(['contract', 'set', '--id', 'shop', ...flags], {});
      expect(set('--inventory-approval', 'on', '--shipped-shipment-edit', 'forbidden', '--order-split-unit', 'category-group')).toMatchObject({
        name: 'contract set',
        settings: { inventoryApproval: true, shippedShipmentEditForbidden: true, orderSplitUnit: '1' },
      });
      expect(set('--inventory-approval', 'off', '--shipped-shipment-edit', 'allowed', '--order-split-unit', 'none')).toMatchObject({
        settings: { inventoryApproval: false, shippedShipmentEditForbidden: false, orderSplitUnit: '0' },
      });
      expect(set('--order-split-unit', 'supplier')).toMatchObject({ settings: { orderSplitUnit: '2' } });
      expect(() => set('--inventory-approval', 'yes')).toThrow(new UsageError('--inventory-approval must be on or off, got "yes"'));
      expect(() => set('--shipped-shipment-edit', 'no')).toThrow(new UsageError('--shipped-shipment-edit must be allowed or forbidden, got "no"'));
      expect(() => set('--order-split-unit', 'toString')).toThrow(new UsageError('--order-split-unit must be none, category-group or supplier, got "toString"'));
    });
  });
});
