import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
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
const SORT_COLUMNS = { cashDrawerId: 'cash_drawer_id', storeId: 'store_id', cashDrawerName: 'cash_drawer_name', updDateTime: 'upd_at' };

export class CashDrawerRepo extends MasterRepo<CashDrawerRow, keyof typeof SORT_COLUMNS> {
  private readonly usedBy;
  private readonly stores;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'cash_drawer', columns: COLUMNS, sort: SORT_COLUMNS });
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.usedBy = db.prepare('SELECT terminal_id FROM terminals WHERE contract_id = ? AND cash_drawer_id = ? ORDER BY terminal_id');
  }

  create(contractId: string, input: CreateCashDrawer): CashDrawerRow {
    return this.writer.write(() => {
      this.assertStore(contractId, input.storeId);
      const id = this.insertRow(contractId, {
        cash_drawer_id: this.ids.next('cash_drawers'),
        store_id: Number(input.storeId),
        cash_drawer_name: input.cashDrawerName,
        use_stop_division: input.useStopDivision ?? '0',
      });
      return this.get(contractId, id);
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
      this.updateFields(contractId, current, values);
      return this.get(contractId, cashDrawerId);
    });
  }

  list(contractId: string, query: ListCashDrawersQuery, page: Page<keyof typeof SORT_COLUMNS>): CashDrawerRow[] {
    const filters = { store_id: query.store_id === undefined ? undefined : Number(query.store_id), use_stop_division: query.use_stop_division };
    return this.select(contractId, filters, page);
  }

  private assertStore(contractId: string, storeId: string): number {
    return this.stores.referenced(contractId, storeId).store_id;
  }

  private assertUnused(contractId: string, drawer: CashDrawerRow, field: string, what: string): void {
    const users = (this.usedBy.all(contractId, drawer.cash_drawer_id) as { terminal_id: number }[]).map((r) => r.terminal_id);
    if (users.length) {
      throw InvalidInput.field(field, `cash drawer ${drawer.cash_drawer_id} is linked to terminal ${users.join(', ')}; unlink it before it can ${what}`);
    }
  }
}
