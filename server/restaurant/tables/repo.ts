import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import type { Page } from '../../platform/http/paging.js';
import { InvalidInput } from '../../domain/errors.js';
import { StoreRepo, type StoreRow } from '../../masters/stores/repo.js';
import type { CreateTable, ListTablesQuery, UpdateTable } from './schema.js';

export interface TableRow {
  contract_id: string;
  table_id: number;
  store_id: number;
  table_name: string;
  seats: number | null;
  display_sequence: number | null;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = { name: 'table_name', seats: 'seats', displaySequence: 'display_sequence' };
const SORT_COLUMNS = { tableId: 'table_id', storeId: 'store_id', name: 'table_name', displaySequence: 'display_sequence' };

const numberOrNull = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));


/** Restaurant tables of a store (the seats a reservation or a table use occupies). */
export class TableRepo extends MasterRepo<TableRow, keyof typeof SORT_COLUMNS> {
  private readonly byName;
  private readonly reservedBy;
  private readonly inUseBy;
  readonly stores: StoreRepo;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'table', columns: COLUMNS, sort: SORT_COLUMNS });
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.byName = db.prepare('SELECT table_id FROM dining_tables WHERE contract_id = ? AND store_id = ? AND table_name = ?');
    this.reservedBy = db.prepare('SELECT reservation_id FROM reservation_tables WHERE contract_id = ? AND table_id = ? LIMIT 1');
    this.inUseBy = db.prepare(
      `SELECT u.table_use_id FROM table_use_tables t JOIN table_uses u USING (contract_id, table_use_id)
       WHERE t.contract_id = ? AND t.table_id = ? AND u.status = 'started' LIMIT 1`,
    );
  }

  /**
   * Tables named by a body (tableIds): each must be a table of `storeId`, none twice. Returns
   * them in the order given. `field` names the array in the problem detail.
   */
  resolve(contractId: string, storeId: number, tableIds: readonly string[], field: string): TableRow[] {
    const seen = new Set<number>();
    return tableIds.map((given, i) => {
      const row = this.find(contractId, given);
      if (!row || row.store_id !== storeId) throw InvalidInput.field(`${field}.${i}`, `table ${given} does not exist in store ${storeId}`);
      if (seen.has(row.table_id)) throw InvalidInput.field(`${field}.${i}`, `table ${given} is given more than once`);
      seen.add(row.table_id);
      return row;
    });
  }

  create(contractId: string, input: CreateTable): TableRow {
    return this.writer.write(() => {
      const store = this.stores.referenced(contractId, input.storeId);
      this.assertNameFree(contractId, store.store_id, input.name, null);
      const id = this.insertRow(contractId, {
        table_id: this.ids.next('dining_tables'),
        store_id: store.store_id,
        table_name: input.name,
        seats: numberOrNull(input.seats),
        display_sequence: numberOrNull(input.displaySequence),
      });
      return this.get(contractId, id);
    });
  }

  update(contractId: string, tableId: string, patch: UpdateTable): TableRow {
    return this.writer.write(() => {
      const current = this.get(contractId, tableId);
      if (patch.name !== undefined) this.assertNameFree(contractId, current.store_id, patch.name, current.table_id);
      const values: Record<string, unknown> = { ...patch };
      if (patch.seats !== undefined) values.seats = numberOrNull(patch.seats);
      if (patch.displaySequence !== undefined) values.displaySequence = numberOrNull(patch.displaySequence);
      this.updateFields(contractId, current, values);
      return this.get(contractId, tableId);
    });
  }

  /** Refused while a reservation names the table or a started table use occupies it. */
  delete(contractId: string, tableId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, tableId);
      const reservation = this.reservedBy.get(contractId, current.table_id) as { reservation_id: number } | undefined;
      if (reservation) {
        throw InvalidInput.field('table_id', `table ${tableId} is used by reservation ${reservation.reservation_id}`);
      }
      const use = this.inUseBy.get(contractId, current.table_id) as { table_use_id: number } | undefined;
      if (use) throw InvalidInput.field('table_id', `table ${tableId} is in use by table use ${use.table_use_id}`);
      this.deleteRow(contractId, current);
    });
  }

  list(contractId: string, query: ListTablesQuery, page: Page<keyof typeof SORT_COLUMNS>): TableRow[] {
    const filters = { store_id: query.store_id === undefined ? undefined : Number(query.store_id) };
    return this.select(contractId, filters, page);
  }

  private assertNameFree(contractId: string, storeId: number, name: string, selfId: number | null): void {
    const other = this.byName.get(contractId, storeId, name) as { table_id: number } | undefined;
    if (other && other.table_id !== selfId) {
      throw InvalidInput.field('name', `table name ${name} is already used by table ${other.table_id} of store ${storeId}`);
    }
  }
}
