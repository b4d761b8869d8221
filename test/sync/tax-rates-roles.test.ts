import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncAgent } from '../../sync/agent.js';
import { CONTRACT, centralAndStore, type CentralAndStore, type Instance } from './helpers.js';

/**
 * Issue 26 (masters-tax): head office plans a rate change, the store pulls it and its sales
 * follow it from the first instant of its day; roles with their controls and receipt provisos
 * travel as whole records. Two real servers on 127.0.0.1 (clock 2026-11-22T10:00+09:00).
 */
let linked: CentralAndStore;
let central: Instance;
let store: Instance;
let agent: SyncAgent;

beforeEach(async () => {
  linked = await centralAndStore();
  ({ central, store, agent } = linked);
});
afterEach(() => linked.close());

describe('tax rates, roles and receipt provisos across a store and central', () => {
  it('a rate change planned at head office reaches the store, whose sales take it from its start only', async () => {
    await central.ok('POST', '/consumption_tax_rates', { applyStartDate: '2026-11-23', taxRate: '12' });
    await central.ok('POST', '/reduce_tax_rates', { termStart: '2026-11-23', rate: '5' });
    expect((await store.api('POST', '/consumption_tax_rates', { applyStartDate: '2026-11-24', taxRate: '15' })).statusCode).toBe(403);
    await agent.drain(CONTRACT);
    expect(await store.ok('GET', '/consumption_tax_rates')).toEqual(await central.ok('GET', '/consumption_tax_rates'));
    expect(await store.ok('GET', '/reduce_tax_rates')).toEqual(await central.ok('GET', '/reduce_tax_rates'));

    const storeId = (await store.ok('POST', '/stores', { storeName: 'Main' })).storeId;
    const terminalId = (await store.ok('POST', '/terminals', { storeId, terminalName: 'R' }))[0].terminalId;
    const sale = (when: string) =>
      store.ok('POST', '/transactions', {
        transactionHeadDivision: '1',
        storeId,
        terminalId,
        terminalTranDateTime: when,
        details: [
          { transactionDetailId: '1', transactionDetailDivision: '1', productName: 'A', salesPrice: '1000', quantity: '1', taxDivision: '1' },
          { transactionDetailId: '2', transactionDetailDivision: '1', productName: 'B', salesPrice: '1000', quantity: '1', taxDivision: '1', reduceTaxId: '10000001' },
        ],
      });
    expect(await sale('2026-11-22T23:59:59+09:00')).toMatchObject({ taxRate: '10', taxExclude: '180', total: '2180', details: [{ taxRate: '10' }, { taxRate: '8' }] });
    expect(await sale('2026-11-23T00:00:00+09:00')).toMatchObject({ taxRate: '12', taxExclude: '170', total: '2170', details: [{ taxRate: '12' }, { taxRate: '5' }] });
  });

  it('roles travel with their controls, receipt provisos as they are; a store edit reaches central', async () => {
    const role = await central.ok('POST', '/roles', { roleName: '店長', functionControls: [{ functionId: '1', controlDivision: '4' }], alertFunctionControls: [{ alertType: '1', controlDivision: '1' }] });
    const proviso = await central.ok('POST', '/receipt_provisoes', { receiptProvisoName: 'お品代として', initialValueFlag: '1' });
    await agent.drain(CONTRACT);
    const withAll = `/roles/${role.roleId}?with_function_controls=all&with_inventory_function_controls=all&with_alert_function_controls=all`;
    expect(await store.ok('GET', withAll)).toEqual(role);
    expect(await store.ok('GET', '/receipt_provisoes')).toEqual([proviso]);

    store.clock.advance(60_000);
    await store.ok('PATCH', `/roles/${role.roleId}`, { functionControls: [{ functionId: '1', controlDivision: '2' }] });
    await agent.drain(CONTRACT);
    expect((await central.ok('GET', withAll)).functionControls).toEqual([{ functionId: '1', controlDivision: '2' }]);
    expect(await central.ok('GET', withAll)).toEqual(await store.ok('GET', withAll));
  });
});
