import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { Page } from '../../http/paging.js';
import { StoreRepo } from '../stores/repo.js';
import type { CreateCashDrawer, ListCashDrawersQuery, UpdateCashDrawer } from './schema.js';

export interface CashDrawerRow {
  contract_id: string;
  cash_drawer_id: number;
  store_id: number;
  cash_drawer_name: string;
  use_stop_division: '0' | '1';
  ins_at: number;
  upd_at: number;
}

const COLUMNS = { storeId: 'store_id', cashDrawerName: 'cash_drawer_name', useStopDivision: 'use_stop_division' };
const DRAWERS = { table: 'cash_drawers', key: 'cash_drawer_id' };
const SORT_COLUMNS = { cashDrawerId: 'cash_drawer_id', storeId: 'store_id', cashDrawerName: 'cash_drawer_name', updDateTime: 'upd_at' };

export class CashDrawerRepo {
  private readonly byId;
  private readonly insert;
  private readonly usedBy;
  private readonly stores;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.byId = db.prepare('SELECT * FROM cash_drawers WHERE contract_id = ? AND cash_drawer_id = ?');
    this.insert = db.prepare(
      `INSERT INTO cash_drawers (contract_id, cash_drawer_id, store_id, cash_drawer_name, use_stop_division, ins_at, upd_at)
       VALUES (@contractId, @cashDrawerId, @storeId, @cashDrawerName, @useStopDivision, @now, @now)`,
    );
    this.usedBy = db.prepare('SELECT terminal_id FROM terminals WHERE contract_id = ? AND cash_drawer_id = ? ORDER BY terminal_id');
  }

  find(contractId: string, cashDrawerId: string | number): CashDrawerRow | undefined {
    return this.byId.get(contractId, cashDrawerId) as CashDrawerRow | undefined;
  }

  get(contractId: string, cashDrawerId: string): CashDrawerRow {
    const row = this.find(contractId, cashDrawerId);
    if (!row) throw NotFound.field('cash_drawer_id', `cash drawer ${cashDrawerId} does not exist`);
    return row;
  }

  create(contractId: string, input: CreateCashDrawer): CashDrawerRow {
    return this.writer.write(() => {
      this.assertStore(contractId, input.storeId);
      const cashDrawerId = this.ids.next('cash_drawers');
      this.insert.run({
        contractId,
        cashDrawerId,
        storeId: Number(input.storeId),
        cashDrawerName: input.cashDrawerName,
        useStopDivision: input.useStopDivision ?? '0',
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'cash_drawer', id: cashDrawerId, op: 'insert' });
      return this.get(contractId, cashDrawerId);
    });
  }

  /**
   * A drawer linked to terminals keeps what 4.16 checked when they linked it: it cannot move
   * to another store nor be stopped until the terminals are unlinked (both 400).
   */
  update(contractId: string, cashDrawerId: string, patch: UpdateCashDrawer): CashDrawerRow {
    return this.writer.write(() => {
      const current = this.get(contractId, cashDrawerId);
      const values: Record<string, unknown> = { ...patch };
      if (patch.storeId !== undefined) {
        values.storeId = this.assertStore(contractId, patch.storeId);
        if (values.storeId !== current.store_id) this.assertUnused(contractId, current, 'storeId', 'move to another store');
      }
      if (patch.useStopDivision === '1' && current.use_stop_division === '0') {
        this.assertUnused(contractId, current, 'useStopDivision', 'be stopped');
      }
      if (updateRow(this.db, DRAWERS, contractId, current.cash_drawer_id, values, COLUMNS, this.clock.now().getTime())) {
        this.writer.changed({ contractId, entity: 'cash_drawer', id: String(current.cash_drawer_id), op: 'update' });
      }
      return this.get(contractId, cashDrawerId);
    });
  }

  list(contractId: string, query: ListCashDrawersQuery, page: Page<keyof typeof SORT_COLUMNS>): CashDrawerRow[] {
    const filters = { store_id: query.store_id === undefined ? undefined : Number(query.store_id), use_stop_division: query.use_stop_division };
    return selectPage<CashDrawerRow, keyof typeof SORT_COLUMNS>(this.db, DRAWERS, contractId, filters, page, SORT_COLUMNS);
  }

  private assertStore(contractId: string, storeId: string): number {
    return this.stores.referenced(contractId, storeId).store_id;
  }

  private assertUnused(contractId: string, drawer: CashDrawerRow, field: string, what: string): void {
    const users = (this.usedBy.all(contractId, drawer.cash_drawer_id) as { terminal_id: number }[]).map((r) => r.terminal_id);
    if (users.length) {
      throw BadRequest.field(field, `cash drawer ${drawer.cash_drawer_id} is linked to terminal ${users.join(', ')}; unlink it before it can ${what}`);
    }
  }
}
