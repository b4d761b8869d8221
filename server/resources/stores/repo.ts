import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { Page } from '../../http/paging.js';
import { formatDecimal } from '../../domain/money.js';
import type { CreateStore, ListStoresQuery, UpdateStore } from './schema.js';

export interface StoreRow {
  contract_id: string;
  store_id: number;
  store_name: string;
  store_code: string | null;
  division: '0' | '1' | '2';
  pause_flag: '0' | '1';
  point_giving_division: '1' | '2' | '3' | '4';
  point_giving_unit_price: string;
  point_giving_unit: string;
  point_spend_division: '1' | '2';
  mileage_division: '0' | '1' | '2';
  mileage_label: string | null;
  closing_method: '0' | '1';
  closing_time: string;
  bank_deposit_auto_input: '0' | '1';
  bank_deposit_auto_input_amount: string;
  cash_input_at_settlement: '0' | '1';
  cash_drawer_division: '0' | '1';
  ins_at: number;
  upd_at: number;
}

const SETTING_COLUMNS = {
  pointGivingDivision: 'point_giving_division',
  pointGivingUnitPrice: 'point_giving_unit_price',
  pointGivingUnit: 'point_giving_unit',
  pointSpendDivision: 'point_spend_division',
  mileageDivision: 'mileage_division',
  mileageLabel: 'mileage_label',
  closingMethod: 'closing_method',
  closingTime: 'closing_time',
  bankDepositAutoInput: 'bank_deposit_auto_input',
  bankDepositAutoInputAmount: 'bank_deposit_auto_input_amount',
  cashInputAtSettlement: 'cash_input_at_settlement',
  cashDrawerDivision: 'cash_drawer_division',
};
const COLUMNS = { storeName: 'store_name', storeCode: 'store_code', division: 'division', pauseFlag: 'pause_flag', ...SETTING_COLUMNS };
const STORES = { table: 'stores', key: 'store_id' };
const SORT_COLUMNS = { storeId: 'store_id', storeCode: 'store_code', storeName: 'store_name', division: 'division' };

export class StoreRepo {
  private readonly byId;
  private readonly byCode;
  private readonly insert;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare('SELECT * FROM stores WHERE contract_id = ? AND store_id = ?');
    this.byCode = db.prepare('SELECT store_id FROM stores WHERE contract_id = ? AND store_code = ?');
    this.insert = db.prepare(
      `INSERT INTO stores (contract_id, store_id, store_name, store_code, division, pause_flag, ins_at, upd_at)
       VALUES (@contractId, @storeId, @storeName, @storeCode, @division, @pauseFlag, @now, @now)`,
    );
  }

  find(contractId: string, storeId: string): StoreRow | undefined {
    return this.byId.get(contractId, storeId) as StoreRow | undefined;
  }

  findByCode(contractId: string, code: string): StoreRow | undefined {
    const hit = this.byCode.get(contractId, code) as { store_id: number } | undefined;
    return hit && this.find(contractId, String(hit.store_id));
  }

  /**
   * The store a record in a body names (`field`): it must exist (400), and where the
   * operation needs a trading store (`open`), not be suspended (pause_flag '1', 400).
   */
  referenced(contractId: string, storeId: string, { field = 'storeId', open = false } = {}): StoreRow {
    const store = this.find(contractId, storeId);
    if (!store) throw BadRequest.field(field, `store ${storeId} does not exist`);
    if (open && store.pause_flag === '1') throw BadRequest.field(field, `store ${storeId} is suspended`);
    return store;
  }

  get(contractId: string, storeId: string): StoreRow {
    const row = this.find(contractId, storeId);
    if (!row) throw NotFound.field('store_id', `store ${storeId} does not exist`);
    return row;
  }

  create(contractId: string, input: CreateStore): StoreRow {
    return this.writer.write(() => {
      this.assertCodeFree(contractId, input.storeCode ?? null, null);
      const storeId = this.ids.next('stores');
      this.insert.run({
        contractId,
        storeId,
        storeName: input.storeName,
        storeCode: input.storeCode ?? null,
        division: input.division ?? '0',
        pauseFlag: input.pauseFlag ?? '0',
        now: this.clock.now().getTime(),
      });
      // Settings not given keep the column defaults of migration 0008.
      updateRow(this.db, STORES, contractId, storeId, withCanonicalDecimals(input), SETTING_COLUMNS, this.clock.now().getTime());
      this.writer.changed({ contractId, entity: 'store', id: storeId, op: 'insert' });
      return this.get(contractId, storeId);
    });
  }

  update(contractId: string, storeId: string, patch: UpdateStore): StoreRow {
    return this.writer.write(() => {
      this.get(contractId, storeId);
      if (patch.storeCode !== undefined) this.assertCodeFree(contractId, patch.storeCode, storeId);
      if (updateRow(this.db, STORES, contractId, storeId, withCanonicalDecimals(patch), COLUMNS, this.clock.now().getTime())) {
        this.writer.changed({ contractId, entity: 'store', id: storeId, op: 'update' });
      }
      return this.get(contractId, storeId);
    });
  }

  list(contractId: string, query: ListStoresQuery, page: Page<keyof typeof SORT_COLUMNS>): StoreRow[] {
    const filters = { store_code: query.store_code, division: query.division, pause_flag: query.pause_flag };
    return selectPage<StoreRow, keyof typeof SORT_COLUMNS>(this.db, STORES, contractId, filters, page, SORT_COLUMNS);
  }

  private assertCodeFree(contractId: string, code: string | null, selfId: string | null): void {
    if (code === null) return;
    const other = this.findByCode(contractId, code);
    if (other && String(other.store_id) !== selfId) {
      throw BadRequest.field('storeCode', `store code ${code} is already used by store ${other.store_id}`);
    }
  }
}

/** Decimal settings are stored in their shortest exact form ("0100.50" → "100.5"). */
function withCanonicalDecimals<T extends Partial<Record<'pointGivingUnitPrice' | 'pointGivingUnit' | 'bankDepositAutoInputAmount', string>>>(values: T): T {
  const out: Record<string, unknown> = { ...values };
  for (const key of ['pointGivingUnitPrice', 'pointGivingUnit', 'bankDepositAutoInputAmount'] as const) {
    if (typeof values[key] === 'string') out[key] = formatDecimal(values[key]);
  }
  return out as T;
}
