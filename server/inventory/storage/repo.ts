import { dialectOf } from '../../db/engine.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage, setClause, updConditions, type Condition } from '../../db/sql.js';
import type { StorageStatus } from '../../domain/storage.js';
import type { Page, UpdRange } from '../../platform/http/paging.js';

/** The registry name (server/db/entities.ts) reported to writer.changed for a storage and its details. */
export const STORAGE_ENTITY = 'storage';

export interface StorageRow {
  contract_id: string;
  storage_id: number;
  storage_info_id: number | null;
  supplier_id: number | null;
  storage_store_id: number;
  storage_expected_date_from: string;
  storage_expected_date_to: string;
  storage_date: string | null;
  memo: string | null;
  staff_id: number | null;
  identification_no: string | null;
  rounding_division: '0' | '1' | '2';
  status: StorageStatus;
  stored_at: number | null;
  ins_at: number;
  upd_at: number;
}

export interface StorageDetailRow {
  contract_id: string;
  storage_id: number;
  storage_detail_id: number;
  storage_info_id: number | null;
  product_id: number;
  tax_rate: string;
  cost: string;
  scheduled_quantity: number;
  inspection_quantity: number | null;
  stockout_quantity: number | null;
  stockout_reason: string | null;
  inspection_date: string | null;
  number_memo: string | null;
  date_memo: string | null;
  compulsory_complete_flag: '0' | '1';
  ins_at: number;
  upd_at: number;
}

export type NewStorage = Omit<StorageRow, 'contract_id' | 'stored_at' | 'ins_at' | 'upd_at'>;
export type NewStorageDetail = Omit<StorageDetailRow, 'contract_id' | 'storage_id' | 'storage_info_id' | 'ins_at' | 'upd_at'>;

/** What an update may set of a header and of a detail. */
export type StorageValues = Partial<Pick<StorageRow, 'storage_date' | 'identification_no' | 'status' | 'stored_at'>>;
export type DetailValues = Partial<
  Pick<StorageDetailRow, 'inspection_quantity' | 'stockout_quantity' | 'stockout_reason' | 'inspection_date' | 'number_memo' | 'date_memo' | 'compulsory_complete_flag'>
>;
const HEADER_COLUMNS = { storage_date: 'storage_date', identification_no: 'identification_no', status: 'status', stored_at: 'stored_at' };
const DETAIL_COLUMNS = {
  inspection_quantity: 'inspection_quantity',
  stockout_quantity: 'stockout_quantity',
  stockout_reason: 'stockout_reason',
  inspection_date: 'inspection_date',
  number_memo: 'number_memo',
  date_memo: 'date_memo',
  compulsory_complete_flag: 'compulsory_complete_flag',
};

export const STORAGE_SORT = ['storageId', 'storageInfoId', 'supplierId', 'storageStoreId', 'storageDate', 'updDateTime'] as const;
type SortField = (typeof STORAGE_SORT)[number];
const SORT_COLUMNS: Record<SortField, string> = {
  storageId: 'storage_id',
  storageInfoId: 'storage_info_id',
  supplierId: 'supplier_id',
  storageStoreId: 'storage_store_id',
  storageDate: 'storage_date',
  updDateTime: 'upd_at',
};

/** The list's equality filters, by column. */
export interface StorageFilters {
  storage_info_id?: string;
  supplier_id?: string;
  storage_store_id?: string;
  storage_date?: string;
  status?: string;
  identification_no?: string;
}

const STORAGES = { table: 'storages', key: 'storage_id' };

/** SQL of storages and their details; the rules live in domain/storage.ts and operations.ts. */
export class StorageRepo {
  private readonly byId;
  private readonly insertRow;
  private readonly insertDetailRow;
  private readonly detailsOf;
  private readonly detailsOfMany;

  constructor(private readonly db: Sqlite) {
    this.byId = db.prepare('SELECT * FROM storages WHERE contract_id = ? AND storage_id = ?');
    this.insertRow = db.prepare(
      `INSERT INTO storages (contract_id, storage_id, storage_info_id, supplier_id, storage_store_id, storage_expected_date_from,
         storage_expected_date_to, storage_date, memo, staff_id, identification_no, rounding_division, status, stored_at, ins_at, upd_at)
       VALUES (@contract_id, @storage_id, @storage_info_id, @supplier_id, @storage_store_id, @storage_expected_date_from,
         @storage_expected_date_to, @storage_date, @memo, @staff_id, @identification_no, @rounding_division, @status, NULL, @now, @now)`,
    );
    this.insertDetailRow = db.prepare(
      `INSERT INTO storage_details (contract_id, storage_id, storage_detail_id, storage_info_id, product_id, tax_rate, cost,
         scheduled_quantity, inspection_quantity, stockout_quantity, stockout_reason, inspection_date, number_memo, date_memo,
         compulsory_complete_flag, ins_at, upd_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.detailsOf = db.prepare('SELECT * FROM storage_details WHERE contract_id = ? AND storage_id = ? ORDER BY storage_detail_id');
    this.detailsOfMany = db.prepare(
      `SELECT * FROM storage_details WHERE contract_id = ? AND storage_id ${dialectOf(db).inJsonList('integer')} ORDER BY storage_id, storage_detail_id`,
    );
  }

  find(contractId: string, storageId: string | number): StorageRow | undefined {
    return this.byId.get(contractId, storageId) as StorageRow | undefined;
  }

  insert(contractId: string, row: NewStorage, details: readonly NewStorageDetail[], now: number): void {
    this.insertRow.run({ ...row, contract_id: contractId, now });
    // Positional binding: a purchase order of 1,000 products makes up to 1,000 details per store.
    for (const d of details) {
      this.insertDetailRow.run(
        contractId, row.storage_id, d.storage_detail_id, row.storage_info_id, d.product_id, d.tax_rate, d.cost, d.scheduled_quantity,
        d.inspection_quantity, d.stockout_quantity, d.stockout_reason, d.inspection_date, d.number_memo, d.date_memo, d.compulsory_complete_flag, now, now,
      );
    }
  }

  /** Sets the given header columns and upd_at (the header changes whenever a detail does). */
  update(contractId: string, storageId: number, values: StorageValues, now: number): void {
    const set = setClause(values, HEADER_COLUMNS);
    this.db
      .prepare(`UPDATE storages SET ${set ? `${set}, ` : ''}upd_at = @now WHERE contract_id = @contractId AND storage_id = @storageId`)
      .run({ ...values, now, contractId, storageId });
  }

  updateDetail(contractId: string, storageId: number, detailId: number, values: DetailValues, now: number): void {
    const set = setClause(values, DETAIL_COLUMNS);
    this.db
      .prepare(`UPDATE storage_details SET ${set ? `${set}, ` : ''}upd_at = @now WHERE contract_id = @contractId AND storage_id = @storageId AND storage_detail_id = @detailId`)
      .run({ ...values, now, contractId, storageId, detailId });
  }

  details(contractId: string, storageId: number): StorageDetailRow[] {
    return this.detailsOf.all(contractId, storageId) as StorageDetailRow[];
  }

  /** The details of several storages (a list page), by storage id. */
  detailsOfPage(contractId: string, storageIds: readonly number[]): Map<number, StorageDetailRow[]> {
    const out = new Map<number, StorageDetailRow[]>(storageIds.map((id) => [id, []]));
    if (!storageIds.length) return out;
    for (const d of this.detailsOfMany.all(contractId, JSON.stringify(storageIds)) as StorageDetailRow[]) out.get(d.storage_id)!.push(d);
    return out;
  }

  /** A page of storages: equality filters, the update-time range, the client's sort then the id. */
  list(contractId: string, filters: StorageFilters, page: Page<SortField> & UpdRange): StorageRow[] {
    const conditions: Condition[] = [
      ['storage_info_id = ?', filters.storage_info_id],
      ['supplier_id = ?', filters.supplier_id],
      ['storage_store_id = ?', filters.storage_store_id],
      ['storage_date = ?', filters.storage_date],
      ['status = ?', filters.status],
      ['identification_no = ?', filters.identification_no],
      ...updConditions(page),
    ];
    return selectFilteredPage<StorageRow, SortField>(this.db, STORAGES, contractId, conditions, page, SORT_COLUMNS);
  }
}
