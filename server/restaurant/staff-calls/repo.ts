import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { orderBy } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { fetchSize, offsetOf, type Page } from '../../platform/http/paging.js';
import { StoreRepo } from '../../masters/stores/repo.js';
import { FloorLookups } from '../tables/lookups.js';
import { defaultMessage, type AnswerStaffCall, type CreateStaffCall, type ListStaffCallsQuery, type STAFF_CALL_SORT } from './schema.js';

export interface StaffCallRow {
  contract_id: string;
  staff_call_id: number;
  store_id: number;
  table_id: number | null;
  table_name: string | null;
  table_use_id: number | null;
  message: string;
  status: 'calling' | 'answered';
  sent_at: number;
  answered_at: number | null;
  answered_by: number | null;
  ins_at: number;
  upd_at: number;
}

type Sort = (typeof STAFF_CALL_SORT)[number];
const SORT_COLUMNS: Record<Sort, string> = { sentAt: 'sent_at', staffCallId: 'staff_call_id' };

/** Staff calls of a store's tables: made by a table, answered once by a staff member. */
export class StaffCallRepo {
  private readonly stores: StoreRepo;
  private readonly lookups: FloorLookups;
  private readonly byId;
  private readonly tableOf;
  private readonly useAt;
  private readonly useById;
  private readonly insert;
  private readonly answer;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.lookups = new FloorLookups(db);
    this.byId = db.prepare('SELECT * FROM staff_calls WHERE contract_id = ? AND staff_call_id = ?');
    this.tableOf = db.prepare('SELECT table_id, store_id, table_name FROM dining_tables WHERE contract_id = ? AND table_id = ?');
    this.useAt = db.prepare(
      `SELECT u.table_use_id FROM table_use_tables t JOIN table_uses u USING (contract_id, table_use_id)
       WHERE t.contract_id = ? AND t.table_id = ? AND u.status = 'started' LIMIT 1`,
    );
    this.useById = db.prepare('SELECT table_use_id, store_id, status FROM table_uses WHERE contract_id = ? AND table_use_id = ?');
    this.insert = db.prepare(
      `INSERT INTO staff_calls (contract_id, staff_call_id, store_id, table_id, table_name, table_use_id, message, sent_at, ins_at, upd_at)
       VALUES (@contractId, @id, @storeId, @tableId, @tableName, @tableUseId, @message, @now, @now, @now)`,
    );
    this.answer = db.prepare(
      `UPDATE staff_calls SET status = 'answered', answered_at = @now, answered_by = @staffId, upd_at = @now
       WHERE contract_id = @contractId AND staff_call_id = @id`,
    );
  }

  get(contractId: string, staffCallId: string): StaffCallRow {
    const row = this.byId.get(contractId, staffCallId) as StaffCallRow | undefined;
    if (!row) throw NotFoundError.field('staff_call_id', `staff call ${staffCallId} does not exist`);
    return row;
  }

  /** A call of an open store, from one of its tables (the party seated there recorded with it) or its counter. */
  create(contractId: string, input: CreateStaffCall): StaffCallRow {
    return this.writer.write(() => {
      const store = this.stores.referenced(contractId, input.storeId, { open: true });
      let table: { table_id: number; store_id: number; table_name: string } | undefined;
      if (input.tableId !== undefined) {
        table = this.tableOf.get(contractId, input.tableId) as typeof table;
        if (!table || table.store_id !== store.store_id) throw InvalidInput.field('tableId', `table ${input.tableId} does not exist in store ${store.store_id}`);
      }
      let tableUseId: number | null = table ? ((this.useAt.get(contractId, table.table_id) as { table_use_id: number } | undefined)?.table_use_id ?? null) : null;
      if (input.tableUseId !== undefined) {
        const use = this.useById.get(contractId, input.tableUseId) as { table_use_id: number; store_id: number; status: string } | undefined;
        if (!use || use.store_id !== store.store_id) throw InvalidInput.field('tableUseId', `table use ${input.tableUseId} does not exist in store ${store.store_id}`);
        if (use.status !== 'started') throw InvalidInput.field('tableUseId', `table use ${input.tableUseId} is ${use.status}; only a seated party calls staff`);
        if (tableUseId !== null && tableUseId !== use.table_use_id) {
          throw InvalidInput.field('tableUseId', `table ${input.tableId} is in table use ${tableUseId}, not in table use ${input.tableUseId}`);
        }
        tableUseId = use.table_use_id;
      }
      const id = this.ids.next('staff_calls');
      const tableName = table?.table_name ?? null;
      this.insert.run({
        contractId,
        id,
        storeId: store.store_id,
        tableId: table?.table_id ?? null,
        tableName,
        tableUseId,
        message: input.message ?? defaultMessage(tableName),
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'staff_call', id, op: 'insert' });
      return this.get(contractId, id);
    });
  }

  /** calling → answered (once; answering an answered call again changes nothing). */
  answerCall(contractId: string, staffCallId: string, input: AnswerStaffCall): StaffCallRow {
    return this.writer.write(() => {
      const current = this.get(contractId, staffCallId);
      if (input.staffId !== undefined && !this.lookups.findStaff(contractId, input.staffId)) {
        throw InvalidInput.field('staffId', `staff ${input.staffId} does not exist`);
      }
      if (current.status === 'answered') return current;
      this.answer.run({ contractId, id: current.staff_call_id, staffId: input.staffId === undefined ? null : Number(input.staffId), now: this.clock.now().getTime() });
      this.writer.changed({ contractId, entity: 'staff_call', id: String(current.staff_call_id), op: 'update' });
      return this.get(contractId, staffCallId);
    });
  }

  /** One page, newest call first unless sorted; calling ones unless `status` says otherwise. */
  list(contractId: string, query: ListStaffCallsQuery, page: Page<Sort>): StaffCallRow[] {
    const where = ['contract_id = ?'];
    const params: (string | number)[] = [contractId];
    if (query.store_id !== undefined) (where.push('store_id = ?'), params.push(Number(query.store_id)));
    if (query.table_id !== undefined) (where.push('table_id = ?'), params.push(Number(query.table_id)));
    const status = query.status ?? 'calling';
    if (status !== 'all') (where.push('status = ?'), params.push(status));
    const sort = page.sort.length ? page.sort : [{ field: 'sentAt' as const, desc: true }];
    const sql = `SELECT * FROM staff_calls WHERE ${where.join(' AND ')} ${orderBy(sort, SORT_COLUMNS, 'staff_call_id')} LIMIT ? OFFSET ?`;
    return this.db.prepare(sql).all(...params, fetchSize(page), offsetOf(page)) as StaffCallRow[];
  }
}
