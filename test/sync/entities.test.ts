import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { belongsToNode, ENTITIES, entityNamed, idOfRow, keyValues, RecordStore } from '../../sync/entities.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { dialectOf } from '../../server/db/engine.js';

/** The one entity registry: complete against the repos, and true to the schema. */

const ROOT = join(import.meta.dirname, '..', '..');
/**
 * Records that are reported but not synced: contracts, API clients, webhook deliveries (tries,
 * times, errors) and CSV export requests (their file lives on the instance that made it) are each
 * instance's own.
 */
const NOT_SYNCED = ['contract', 'api_client', 'webhook_delivery', 'transaction_export'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

let t: TestApp;
beforeAll(async () => (t = await makeTestApp()));
afterAll(() => t.close());

describe('entity registry', () => {
  it('names every entity the repos report to writer.changed (or lists it as not synced)', () => {
    const reported = new Set<string>();
    // The webhooks' records are reported by sync/webhooks (subscriptions, events).
    for (const file of [...sources(join(ROOT, 'server')), ...sources(join(ROOT, 'sync', 'webhooks'))]) {
      for (const m of readFileSync(file, 'utf8').matchAll(/entity: '([a-z_]+)'/g)) reported.add(m[1]!);
      for (const m of readFileSync(file, 'utf8').matchAll(/_ENTITY = '([a-z_]+)'/g)) reported.add(m[1]!);
    }
    expect(reported.size).toBeGreaterThan(20);
    const missing = [...reported].filter((name) => !entityNamed(name) && !NOT_SYNCED.includes(name));
    expect(missing).toEqual([]);
    expect(ENTITIES.filter((e) => !reported.has(e.name)).map((e) => e.name)).toEqual([]);
  });

  it('every table, key and child table exists and is contract-scoped', () => {
    const columns = (table: string) => (t.deps.db.prepare(dialectOf(t.deps.db).tableColumns(table)).all() as { name: string; pk: number }[]);
    for (const def of ENTITIES) {
      const cols = columns(def.table);
      expect(cols.length, def.table).toBeGreaterThan(0);
      const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      expect(pk, def.name).toEqual(['contract_id', ...def.keys]);
      for (const child of def.children ?? []) {
        const names = columns(child.table).map((c) => c.name);
        expect(names, child.table).toEqual(expect.arrayContaining(['contract_id', child.parentKey]));
      }
    }
  });

  it('ids: composite keys join by "/", node suffixes', () => {
    const budget = entityNamed('daily_budget')!;
    expect(keyValues(budget, '12001/2026-11-22')).toEqual(['12001', '2026-11-22']);
    expect(() => keyValues(budget, '12001')).toThrow(RangeError);
    expect(idOfRow(budget, { store_id: 12001, budget_date: '2026-11-22' })).toBe('12001/2026-11-22');
    expect(belongsToNode('15007', 7)).toBe(true);
    expect(belongsToNode('15007', 17)).toBe(false);
    expect(belongsToNode('007', 7)).toBe(false);
    expect(belongsToNode('12000', 0)).toBe(true);
  });
});

describe('outbox', () => {
  it('a store writes one outbox row per change in the same transaction, with the record and its children', async () => {
    const store = (await t.api('POST', '/stores', { storeName: 'S' })).json().storeId;
    const before = t.deps.db.prepare('SELECT count(*) FROM outbox').pluck().get() as number;
    const terminal = (await t.api('POST', '/terminals', { storeId: store, terminalName: 'R' })).json()[0].terminalId;
    const sale = await t.api('POST', '/transactions', {
      transactionHeadDivision: '1', storeId: store, terminalId: terminal, terminalTranDateTime: '2026-11-22T10:00:00+09:00',
      details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'A', salesPrice: '100', quantity: '2', taxDivision: '2' }],
    });
    expect(sale.statusCode).toBe(200);
    const rows = t.deps.db.prepare('SELECT seq, node, entity, entity_id, op, hlc, row FROM outbox WHERE seq > 0 ORDER BY seq').all().slice(before) as {
      seq: number; node: number; entity: string; entity_id: string; op: string; hlc: string; row: string;
    }[];
    expect(rows.map((r) => [r.entity, r.op])).toEqual([['terminal', 'insert'], ['transaction', 'insert']]);
    expect(rows.map((r) => r.node)).toEqual([1, 1]);
    expect(rows[0]!.hlc < rows[1]!.hlc).toBe(true);
    // A master carries its copy; a sales record is read as it stands when pushed (sync/write-hooks.ts).
    expect(JSON.parse(rows[0]!.row).row.terminal_id).toBe(Number(terminal));
    expect(rows[1]!.row).toBeNull();
    const record = new RecordStore(t.deps.db).read(entityNamed('transaction')!, t.contractId, rows[1]!.entity_id)!;
    expect(record.row.transaction_head_id).toBe(Number(sale.json().transactionHeadId));
    expect(record.children!.transaction_details).toHaveLength(1);
    expect(record.children!.transaction_details![0]!.product_name).toBe('A');
    expect(Object.keys(record.children!)).toEqual(['transaction_details', 'transaction_deposit_others', 'transaction_coupons']);
    // A write that fails leaves no outbox row.
    const count = () => t.deps.db.prepare('SELECT count(*) FROM outbox').pluck().get();
    const n = count();
    expect((await t.api('POST', '/terminals', { storeId: '999999', terminalName: 'X' })).statusCode).toBe(400);
    expect(count()).toBe(n);
    // A version per master; sales have none.
    expect(t.deps.db.prepare("SELECT count(*) FROM sync_versions WHERE entity = 'terminal' AND entity_id = ?").pluck().get(terminal)).toBe(1);
    expect(t.deps.db.prepare("SELECT count(*) FROM sync_versions WHERE entity = 'transaction'").pluck().get()).toBe(0);
  });
});
