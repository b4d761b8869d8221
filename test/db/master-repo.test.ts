import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MasterRepo } from '../../server/db/master-repo.js';
import type { Change } from '../../server/db/write.js';
import type { Page } from '../../server/platform/http/paging.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** The generic master repo: everything but the column maps comes from the entity registry. */

interface GroupRow {
  payment_method_group_id: number;
  payment_method_group_name: string;
  display_sequence: number | null;
  upd_at: number;
}

const SORT = { id: 'payment_method_group_id', name: 'payment_method_group_name' };

/** A master described by its registry name and column maps alone. */
class Groups extends MasterRepo<GroupRow, keyof typeof SORT> {
  constructor(t: TestApp, entity = 'payment_method_group') {
    super(t.deps.db, t.deps.writer, t.deps.clock, { entity, columns: { name: 'payment_method_group_name' }, sort: SORT });
  }
  add(contractId: string, id: string, name: string): string {
    return this.writer.write(() => this.insertRow(contractId, { payment_method_group_id: id, payment_method_group_name: name }));
  }
  patch(contractId: string, id: string, values: Record<string, unknown>): boolean {
    return this.writer.write(() => this.updateFields(contractId, this.get(contractId, id), values));
  }
  remove(contractId: string, id: string): void {
    this.writer.write(() => this.deleteRow(contractId, this.get(contractId, id)));
  }
  list(contractId: string, filters: Record<string, string | number | undefined>, page: Page<keyof typeof SORT>): GroupRow[] {
    return this.select(contractId, filters, page);
  }
}

interface BudgetDayRow {
  store_id: number;
  budget_date: string;
  sales_target_units: number;
  customer_count_target: number | null;
  upd_at: number;
}

const BUDGET_SORT = { date: 'budget_date', storeId: 'store_id' };

/** A master with a two-part key (store_id, budget_date), addressed by its record id `<store>/<date>`. */
class BudgetDays extends MasterRepo<BudgetDayRow, keyof typeof BUDGET_SORT> {
  constructor(t: TestApp) {
    super(t.deps.db, t.deps.writer, t.deps.clock, { entity: 'daily_budget', columns: { target: 'sales_target_units' }, sort: BUDGET_SORT });
  }
  add(contractId: string, storeId: number, date: string, units: number): string {
    return this.writer.write(() => this.insertRow(contractId, { store_id: storeId, budget_date: date, sales_target_units: units }));
  }
  patch(contractId: string, id: string, values: Record<string, unknown>): boolean {
    return this.writer.write(() => this.updateFields(contractId, this.get(contractId, id), values));
  }
  remove(contractId: string, id: string): void {
    this.writer.write(() => this.deleteRow(contractId, this.get(contractId, id)));
  }
  list(contractId: string, page: Page<keyof typeof BUDGET_SORT>): BudgetDayRow[] {
    return this.selectWhere(contractId, [['budget_date >= ?', '2026-01-01']], page);
  }
}

let t: TestApp;
const changes: Change[] = [];
beforeAll(async () => {
  t = await makeTestApp();
  t.deps.writer.onChange((c) => changes.push(c));
});
afterAll(() => t.close());

const page = (sort: Page<keyof typeof SORT>['sort'] = []): Page<keyof typeof SORT> => ({ limit: 10, page: 1, sort });

describe('MasterRepo', () => {
  it('inserts, reads, patches and deletes one registry entry, reporting each write under its registry name', () => {
    const repo = new Groups(t);
    const c = t.contractId;
    changes.length = 0;
    expect(repo.add(c, '901000', 'B')).toBe('901000');
    repo.add(c, '902000', 'A');
    expect(repo.get(c, 901000)).toMatchObject({ payment_method_group_id: 901000, payment_method_group_name: 'B', display_sequence: null });
    expect(repo.find(c, '903000')).toBeUndefined();
    expect(repo.list(c, {}, page([{ field: 'name', desc: false }])).map((r) => r.payment_method_group_id).slice(0, 2)).toEqual([902000, 901000]);
    expect(repo.list(c, { payment_method_group_name: 'B' }, page()).map((r) => r.payment_method_group_id)).toEqual([901000]);

    t.clock.advance(1000);
    expect(repo.patch(c, '901000', { name: 'C', unknownKey: 'x' })).toBe(true);
    expect(repo.get(c, '901000')).toMatchObject({ payment_method_group_name: 'C', upd_at: t.clock.now().getTime() });
    // Nothing the column map names: nothing written, nothing reported.
    expect(repo.patch(c, '901000', { displaySequence: 3 })).toBe(false);
    repo.remove(c, '902000');
    expect(repo.find(c, '902000')).toBeUndefined();

    expect(changes.map((ch) => [ch.entity, ch.id, ch.op])).toEqual([
      ['payment_method_group', '901000', 'insert'],
      ['payment_method_group', '902000', 'insert'],
      ['payment_method_group', '901000', 'update'],
      ['payment_method_group', '902000', 'delete'],
    ]);
  });

  it('get is a 404 naming the key parameter and the entity', () => {
    const repo = new Groups(t);
    expect(() => repo.get(t.contractId, '999999')).toThrow('[payment_method_group_id] payment method group 999999 does not exist');
  });

  it('the upd range of the list is checked', () => {
    const repo = new Groups(t);
    expect(() => repo.list(t.contractId, {}, { ...page(), 'upd_date_time-from': 2, 'upd_date_time-to': 1 } as Page<'id'>)).toThrow(
      'upd_date_time-to',
    );
  });

  it('refuses what is not a master of the registry', () => {
    expect(() => new Groups(t, 'no_such_entity')).toThrow('not a master');
    expect(() => new Groups(t, 'transaction')).toThrow('not a master'); // a sales record
  });

  it('addresses a composite key by its record id, the key values joined by "/"', async () => {
    const repo = new BudgetDays(t);
    const c = t.contractId;
    const s1 = Number((await t.api('POST', '/stores', { storeName: 'Budget A' })).json().storeId);
    const s2 = Number((await t.api('POST', '/stores', { storeName: 'Budget B' })).json().storeId);
    changes.length = 0;
    expect(repo.add(c, s1, '2026-03-02', 100)).toBe(`${s1}/2026-03-02`);
    repo.add(c, s2, '2026-03-01', 200);
    repo.add(c, s1, '2026-03-01', 300);

    expect(repo.get(c, `${s1}/2026-03-02`)).toMatchObject({ store_id: s1, budget_date: '2026-03-02', sales_target_units: 100 });
    expect(repo.find(c, `${s2}/2026-03-02`)).toBeUndefined();
    // A malformed id (parts missing or empty) finds nothing, so get answers the 404.
    expect(repo.find(c, String(s1))).toBeUndefined();
    expect(repo.find(c, `${s1}/`)).toBeUndefined();
    expect(() => repo.get(c, `${s2}/2026-03-02`)).toThrow(`[store_id/budget_date] daily budget ${s2}/2026-03-02 does not exist`);
    expect(() => repo.get(c, 'x')).toThrow('[store_id/budget_date] daily budget x does not exist');

    // The key breaks ties: store then date after the client's sort.
    const ids = (rows: BudgetDayRow[]) => rows.map((r) => `${r.store_id}/${r.budget_date}`);
    const days = (sort: Page<keyof typeof BUDGET_SORT>['sort']) => ids(repo.list(c, { limit: 10, page: 1, sort }));
    expect(days([])).toEqual([`${s1}/2026-03-01`, `${s1}/2026-03-02`, `${s2}/2026-03-01`]);
    expect(days([{ field: 'date', desc: false }])).toEqual([`${s1}/2026-03-01`, `${s2}/2026-03-01`, `${s1}/2026-03-02`]);

    t.clock.advance(1000);
    expect(repo.patch(c, `${s1}/2026-03-01`, { target: 350 })).toBe(true);
    expect(repo.get(c, `${s1}/2026-03-01`)).toMatchObject({ sales_target_units: 350, upd_at: t.clock.now().getTime() });
    // Only that row of the store and of the date changed.
    expect(repo.get(c, `${s1}/2026-03-02`).sales_target_units).toBe(100);
    expect(repo.get(c, `${s2}/2026-03-01`).sales_target_units).toBe(200);
    expect(repo.patch(c, `${s1}/2026-03-01`, { other: 1 })).toBe(false);

    repo.remove(c, `${s2}/2026-03-01`);
    expect(repo.find(c, `${s2}/2026-03-01`)).toBeUndefined();
    expect(repo.find(c, `${s1}/2026-03-01`)).toBeDefined();

    expect(changes.filter((ch) => ch.entity === 'daily_budget').map((ch) => [ch.id, ch.op])).toEqual([
      [`${s1}/2026-03-02`, 'insert'],
      [`${s2}/2026-03-01`, 'insert'],
      [`${s1}/2026-03-01`, 'insert'],
      [`${s1}/2026-03-01`, 'update'],
      [`${s2}/2026-03-01`, 'delete'],
    ]);
  });
});
