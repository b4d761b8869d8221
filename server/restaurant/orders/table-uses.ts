import type { Clock } from '../../clock.js';
import { dialectOf } from '../../db/engine.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { tableUseStatusProblem, type TableUseStatus } from '../../domain/order-items.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import type { TableRepo, TableRow } from '../tables/repo.js';
import type { TableUse, TableUseWithOrders } from './schema.js';

export interface TableUseRow {
  contract_id: string;
  table_use_id: number;
  store_id: number;
  status: TableUseStatus;
  ins_at: number;
  upd_at: number;
}

/**
 * Table uses (the order header of spec 2.12): the tables a party occupies from seating to
 * checkout. A table is in at most one started table use at a time.
 */
export class TableUseRepo {
  private readonly byId;
  private readonly insert;
  private readonly addTable;
  private readonly tablesOf;
  private readonly manyById;
  private readonly tablesOfMany;
  private readonly orderIdsOf;
  private readonly occupiedBy;
  private readonly setStatus;
  private readonly finishReservations;
  private readonly releaseReservations;

  constructor(
    db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare('SELECT * FROM table_uses WHERE contract_id = ? AND table_use_id = ?');
    this.insert = db.prepare(
      `INSERT INTO table_uses (contract_id, table_use_id, store_id, status, ins_at, upd_at)
       VALUES (?, ?, ?, 'started', ?, ?)`,
    );
    this.addTable = db.prepare(
      'INSERT INTO table_use_tables (contract_id, table_use_id, table_id, table_name, position) VALUES (?, ?, ?, ?, ?)',
    );
    // The current name while the table exists, the name it had when seated once it is gone.
    this.tablesOf = db.prepare(
      `SELECT u.table_id, coalesce(t.table_name, u.table_name) AS table_name
       FROM table_use_tables u LEFT JOIN dining_tables t ON t.contract_id = u.contract_id AND t.table_id = u.table_id
       WHERE u.contract_id = ? AND u.table_use_id = ? ORDER BY u.position`,
    );
    // Several table uses at once (a page of orders): ids passed as one JSON array.
    this.manyById = db.prepare(
      `SELECT * FROM table_uses WHERE contract_id = ? AND table_use_id ${dialectOf(db).inJsonList('integer')}`,
    );
    this.tablesOfMany = db.prepare(
      `SELECT u.table_use_id, u.table_id, coalesce(t.table_name, u.table_name) AS table_name
       FROM table_use_tables u LEFT JOIN dining_tables t ON t.contract_id = u.contract_id AND t.table_id = u.table_id
       WHERE u.contract_id = ? AND u.table_use_id ${dialectOf(db).inJsonList('integer')} ORDER BY u.table_use_id, u.position`,
    );
    this.orderIdsOf = db.prepare(
      'SELECT order_id FROM orders WHERE contract_id = ? AND table_use_id = ? ORDER BY ordered_at, order_id',
    );
    this.occupiedBy = db.prepare(
      `SELECT u.table_use_id FROM table_use_tables t JOIN table_uses u USING (contract_id, table_use_id)
       WHERE t.contract_id = ? AND t.table_id = ? AND u.status = 'started' LIMIT 1`,
    );
    // Ending a table use records when (the platform's `ended`, 精算日時).
    this.setStatus = db.prepare(
      `UPDATE table_uses SET status = @status, ended_at = CASE WHEN @status = 'ended' THEN @now ELSE ended_at END, upd_at = @now
       WHERE contract_id = @contractId AND table_use_id = @tableUseId`,
    );
    this.releaseReservations = db.prepare(
      `UPDATE reservations SET table_use_id = NULL, upd_at = ?
       WHERE contract_id = ? AND table_use_id = ? RETURNING reservation_id`,
    );
    this.finishReservations = db.prepare(
      `UPDATE reservations SET status = 'finished', upd_at = ?
       WHERE contract_id = ? AND table_use_id = ? AND status IN ('waiting', 'coming') RETURNING reservation_id`,
    );
  }

  find(contractId: string, tableUseId: string | number): TableUseRow | undefined {
    return this.byId.get(contractId, tableUseId) as TableUseRow | undefined;
  }

  get(contractId: string, tableUseId: string): TableUseRow {
    const row = this.find(contractId, tableUseId);
    if (!row) throw NotFoundError.field('table_use_id', `table use ${tableUseId} does not exist`);
    return row;
  }

  /** An existing started table use named in a body (400s naming `field`). */
  open(contractId: string, tableUseId: string, field: string): TableUseRow {
    const row = this.find(contractId, tableUseId);
    if (!row) throw InvalidInput.field(field, `table use ${tableUseId} does not exist`);
    if (row.status !== 'started') throw InvalidInput.field(field, `table use ${tableUseId} is ${row.status}; orders need a started table use`);
    return row;
  }

  /** Seats a party at `tableIds` of the store; each table must be free (not in a started table use). */
  start(contractId: string, storeId: number, tableIds: readonly string[], tables: TableRepo): TableUseRow {
    return this.writer.write(() => {
      const rows: TableRow[] = tables.resolve(contractId, storeId, tableIds, 'tableIds');
      rows.forEach((t, i) => {
        const use = this.occupiedBy.get(contractId, t.table_id) as { table_use_id: number } | undefined;
        if (use) throw InvalidInput.field(`tableIds.${i}`, `table ${t.table_id} is in use by table use ${use.table_use_id}`);
      });
      const tableUseId = this.ids.next('table_uses');
      const now = this.clock.now().getTime();
      this.insert.run(contractId, tableUseId, storeId, now, now);
      rows.forEach((t, i) => this.addTable.run(contractId, tableUseId, t.table_id, t.table_name, i + 1));
      this.writer.changed({ contractId, entity: 'table_use', id: tableUseId, op: 'insert' });
      return this.find(contractId, tableUseId)!;
    });
  }

  /**
   * Ending a table use also finishes the reservation seated at it (the party has left).
   * Cancelling one (seated by mistake) releases the reservation: it keeps its status but is
   * no longer bound, so it can be seated again or cancelled (3.4's 405 is for a bound one).
   */
  changeStatus(contractId: string, tableUseId: string, status: TableUseStatus): TableUseRow {
    return this.writer.write(() => {
      const current = this.get(contractId, tableUseId);
      const problem = tableUseStatusProblem(current.status, status);
      if (problem) throw InvalidInput.field('status', problem);
      if (current.status === status) return current;
      const now = this.clock.now().getTime();
      this.setStatus.run({ status, now, contractId, tableUseId: current.table_use_id });
      this.writer.changed({ contractId, entity: 'table_use', id: tableUseId, op: 'update' });
      if (status === 'ended') {
        const finished = this.finishReservations.all(now, contractId, current.table_use_id) as { reservation_id: number }[];
        for (const r of finished) this.writer.changed({ contractId, entity: 'reservation', id: String(r.reservation_id), op: 'update' });
      }
      if (status === 'canceled') {
        const released = this.releaseReservations.all(now, contractId, current.table_use_id) as { reservation_id: number }[];
        for (const r of released) this.writer.changed({ contractId, entity: 'reservation', id: String(r.reservation_id), op: 'update' });
      }
      return this.get(contractId, tableUseId);
    });
  }

  present(row: TableUseRow): TableUse {
    const tables = this.tablesOf.all(row.contract_id, row.table_use_id) as { table_id: number; table_name: string }[];
    return presentTableUse(row, tables);
  }

  /** The table use with the ids of its orders, oldest (`ordered`) first. */
  presentWithOrders(row: TableUseRow): TableUseWithOrders {
    const orders = this.orderIdsOf.all(row.contract_id, row.table_use_id) as { order_id: number }[];
    return { ...this.present(row), orderIds: orders.map((o) => String(o.order_id)) };
  }

  /** Presents several table uses with two queries in all, keyed by table_use_id. */
  presentMany(contractId: string, tableUseIds: readonly number[]): Map<number, TableUse> {
    const json = JSON.stringify([...new Set(tableUseIds)]);
    const tables = new Map<number, TableOfUse[]>();
    for (const t of this.tablesOfMany.all(contractId, json) as (TableOfUse & { table_use_id: number })[]) {
      const list = tables.get(t.table_use_id) ?? [];
      list.push(t);
      tables.set(t.table_use_id, list);
    }
    const result = new Map<number, TableUse>();
    for (const row of this.manyById.all(contractId, json) as TableUseRow[]) {
      result.set(row.table_use_id, presentTableUse(row, tables.get(row.table_use_id) ?? []));
    }
    return result;
  }
}

interface TableOfUse {
  table_id: number;
  table_name: string;
}

function presentTableUse(row: TableUseRow, tables: readonly TableOfUse[]): TableUse {
  return {
    id: String(row.table_use_id),
    status: row.status,
    storeId: String(row.store_id),
    tables: tables.map((t) => ({ id: String(t.table_id), name: t.table_name })),
  };
}
