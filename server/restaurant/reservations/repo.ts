import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { orderBy, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { fetchSize, offsetOf, type Page } from '../../platform/http/paging.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { nameCharacterProblem } from '../../domain/text-rules.js';
import { formatDateTime, parseDateTime } from '../../domain/time.js';
import { FloorLookups } from '../tables/lookups.js';
import { assertDeletable, assertUpdatable } from './allowed-operations.js';
import { TableRepo, type TableRow } from '../tables/repo.js';
import {
  DEFAULT_RESERVED_FROM,
  IMPORTED_RESERVED_FROM,
  RESERVATION_ZONE,
  RESERVATION_SORT,
  type CreateReservation,
  type ListReservationsQuery,
  type ReservationRow,
  type UpdateReservation,
} from './schema.js';

const RESERVATIONS = { table: 'reservations', key: 'reservation_id' };
const COLUMNS = {
  startAt: 'start_at',
  endAt: 'end_at',
  adults: 'adults',
  children: 'children',
  personName: 'person_name',
  personNameKana: 'person_name_kana',
  status: 'status',
  phoneNumber: 'phone_number',
  staffId: 'staff_id',
  staffName: 'staff_name',
  note: 'note',
  reservedAt: 'reserved_at',
};
const SORT_COLUMNS: Record<(typeof RESERVATION_SORT)[number], string> = {
  id: 'reservation_id',
  storeId: 'store_id',
  startAt: 'start_at',
  endAt: 'end_at',
  reservedAt: 'reserved_at',
};

const ms = (value: string) => parseDateTime(value)!;
/**
 * A time the reservation keeps: reservations read back to the second (spec 2.4), so a sent
 * fraction is cut first and the start/end rule compares what will be read back (issue 10).
 */
const toSecond = (at: number) => Math.floor(at / 1000) * 1000;
const wholeSeconds = (value: string) => toSecond(ms(value));
const tokyo = (at: number) => formatDateTime(at, RESERVATION_ZONE);

export class ReservationRepo {
  private readonly byId;
  private readonly byCode;
  private readonly insert;
  private readonly tablesOf;
  private readonly addTable;
  private readonly clearTables;
  private readonly remove;
  private readonly touch;
  private readonly bind;
  readonly tables: TableRepo;
  private readonly lookups: FloorLookups;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.tables = new TableRepo(db, writer, ids, clock);
    this.lookups = new FloorLookups(db);
    this.byId = db.prepare('SELECT * FROM reservations WHERE contract_id = ? AND reservation_id = ?');
    this.byCode = db.prepare('SELECT reservation_id FROM reservations WHERE contract_id = ? AND store_id = ? AND reservation_code = ?');
    this.insert = db.prepare(
      `INSERT INTO reservations (contract_id, reservation_id, store_id, reservation_code, start_at, end_at, adults, children,
         person_name, person_name_kana, status, phone_number, staff_id, staff_name, note, reserved_at, reserved_from, ins_at, upd_at)
       VALUES (@contractId, @reservationId, @storeId, @reservationCode, @startAt, @endAt, @adults, @children,
         @personName, @personNameKana, @status, @phoneNumber, @staffId, @staffName, @note, @reservedAt, @reservedFrom, @now, @now)`,
    );
    this.tablesOf = db.prepare(
      `SELECT t.table_id, t.table_name FROM reservation_tables r JOIN dining_tables t USING (contract_id, table_id)
       WHERE r.contract_id = ? AND r.reservation_id = ? ORDER BY r.position`,
    );
    this.addTable = db.prepare('INSERT INTO reservation_tables (contract_id, reservation_id, table_id, position) VALUES (?, ?, ?, ?)');
    this.clearTables = db.prepare('DELETE FROM reservation_tables WHERE contract_id = ? AND reservation_id = ?');
    this.remove = db.prepare('DELETE FROM reservations WHERE contract_id = ? AND reservation_id = ?');
    this.touch = db.prepare('UPDATE reservations SET upd_at = ? WHERE contract_id = ? AND reservation_id = ?');
    this.bind = db.prepare('UPDATE reservations SET table_use_id = ?, status = ?, upd_at = ? WHERE contract_id = ? AND reservation_id = ?');
  }

  find(contractId: string, reservationId: string | number): ReservationRow | undefined {
    return this.byId.get(contractId, reservationId) as ReservationRow | undefined;
  }

  get(contractId: string, reservationId: string): ReservationRow {
    const row = this.find(contractId, reservationId);
    if (!row) throw NotFoundError.field('reservation_id', `reservation ${reservationId} does not exist`);
    return row;
  }

  /** The reservation's tables as spec 2.4 reads them, in the order they were given. */
  tablesOfReservation(contractId: string, reservationId: number): { id: string; name: string }[] {
    const rows = this.tablesOf.all(contractId, reservationId) as { table_id: number; table_name: string }[];
    return rows.map((r) => ({ id: String(r.table_id), name: r.table_name }));
  }

  create(contractId: string, input: CreateReservation): ReservationRow {
    return this.writer.write(() => {
      // Reservations refuse a suspended store (spec 4.13).
      const store = this.tables.stores.referenced(contractId, input.storeId, { open: true });
      const startAt = wholeSeconds(input.startAt);
      const endAt = wholeSeconds(input.endAt);
      if (startAt >= endAt) throw InvalidInput.field('endAt', `must be after startAt ${tokyo(startAt)}`);
      if (input.reservationCode !== undefined) {
        const other = this.byCode.get(contractId, store.store_id, input.reservationCode) as { reservation_id: number } | undefined;
        if (other) {
          throw InvalidInput.field('reservationCode', `reservation code ${input.reservationCode} is already used by reservation ${other.reservation_id}`);
        }
      }
      const tables = this.tables.resolve(contractId, store.store_id, input.tableIds ?? [], 'tableIds');
      const staff = input.staff ? this.resolveStaff(contractId, input.staff) : { staffId: null, staffName: null };
      const reservationId = this.ids.next('reservations');
      const now = this.clock.now().getTime();
      this.insert.run({
        contractId,
        reservationId,
        storeId: store.store_id,
        reservationCode: input.reservationCode ?? null,
        startAt,
        endAt,
        adults: input.persons?.adults ?? 0,
        children: input.persons?.children ?? 0,
        personName: input.reservationPersonName ?? null,
        personNameKana: input.reservationPersonNameKana ?? null,
        status: input.status ?? 'waiting',
        phoneNumber: input.phoneNumber ?? null,
        ...staff,
        note: input.note ?? null,
        reservedAt: input.reservedAt === undefined ? now : wholeSeconds(input.reservedAt),
        reservedFrom: input.reservedFrom ?? (input.reservationCode === undefined ? DEFAULT_RESERVED_FROM : IMPORTED_RESERVED_FROM),
        now,
      });
      this.replaceTables(contractId, Number(reservationId), tables);
      this.writer.changed({ contractId, entity: 'reservation', id: reservationId, op: 'insert' });
      return this.get(contractId, reservationId);
    });
  }

  /**
   * Spec 4.13. Order of checks: the reservation (404), then what the reservation allows
   * (allowed-operations.ts: imported, or canceling one bound to a table use), then its store
   * (400 suspended or gone), then the body's rules and references (400). Nothing changes when any of them refuses.
   */
  update(contractId: string, reservationId: string, patch: UpdateReservation): void {
    this.writer.write(() => {
      const current = this.get(contractId, reservationId);
      assertUpdatable(reservationId, current, patch);
      this.tables.stores.referenced(contractId, String(current.store_id), { open: true });
      if (patch.status !== undefined && current.status === 'paid') {
        throw InvalidInput.field('status', `reservation ${reservationId} is paid; its status can no longer change`);
      }

      const startAt = patch.startAt === undefined ? toSecond(current.start_at) : wholeSeconds(patch.startAt);
      const endAt = patch.endAt === undefined ? toSecond(current.end_at) : wholeSeconds(patch.endAt);
      if (startAt >= endAt) {
        throw patch.endAt === undefined
          ? InvalidInput.field('startAt', `must be before endAt ${tokyo(endAt)}`)
          : InvalidInput.field('endAt', `must be after startAt ${tokyo(startAt)}`);
      }
      const tables = patch.tableIds === undefined ? undefined : this.tables.resolve(contractId, current.store_id, patch.tableIds, 'tableIds');

      const values: Record<string, unknown> = {
        startAt: patch.startAt === undefined ? undefined : startAt,
        endAt: patch.endAt === undefined ? undefined : endAt,
        personName: patch.reservationPersonName,
        personNameKana: patch.reservationPersonNameKana,
        status: patch.status,
        phoneNumber: patch.phoneNumber,
        note: patch.note,
        reservedAt: patch.reservedAt === undefined ? undefined : wholeSeconds(patch.reservedAt),
      };
      if (patch.persons !== undefined) {
        values.adults = patch.persons?.adults ?? 0;
        values.children = patch.persons?.children ?? 0;
      }
      if (patch.staff !== undefined) Object.assign(values, patch.staff ? this.resolveStaff(contractId, patch.staff) : { staffId: null, staffName: null });

      const now = this.clock.now().getTime();
      const updated = updateRow(this.db, RESERVATIONS, contractId, current.reservation_id, values, COLUMNS, now);
      if (tables) {
        this.replaceTables(contractId, current.reservation_id, tables);
        if (!updated) this.touch.run(now, contractId, current.reservation_id);
      }
      this.writer.changed({ contractId, entity: 'reservation', id: String(current.reservation_id), op: 'update' });
    });
  }

  /** A reservation bound to a table use is not removed (allowed-operations.ts: that would cancel it). */
  delete(contractId: string, reservationId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, reservationId);
      assertDeletable(reservationId, current);
      this.remove.run(contractId, current.reservation_id);
      this.writer.changed({ contractId, entity: 'reservation', id: String(current.reservation_id), op: 'delete' });
    });
  }

  /**
   * Seats the reservation's party at a table use (called by the order side, not by 4.13's PATCH).
   * A waiting reservation becomes coming (the guests arrived).
   */
  bindToTableUse(contractId: string, reservationId: string, tableUseId: string, storeId: number, field: string): void {
    const current = this.find(contractId, reservationId);
    if (!current || current.store_id !== storeId) throw InvalidInput.field(field, `reservation ${reservationId} does not exist in store ${storeId}`);
    if (current.table_use_id !== null && String(current.table_use_id) !== tableUseId) {
      throw InvalidInput.field(field, `reservation ${reservationId} is already bound to table use ${current.table_use_id}`);
    }
    if (current.status === 'canceled' || current.status === 'paid') {
      throw InvalidInput.field(field, `reservation ${reservationId} is ${current.status}`);
    }
    const status = current.status === 'waiting' ? 'coming' : current.status;
    this.bind.run(Number(tableUseId), status, this.clock.now().getTime(), contractId, current.reservation_id);
    this.writer.changed({ contractId, entity: 'reservation', id: String(current.reservation_id), op: 'update' });
  }

  list(contractId: string, query: ListReservationsQuery, page: Page<(typeof RESERVATION_SORT)[number]>): ReservationRow[] {
    const where = ['contract_id = ?'];
    const params: (string | number)[] = [contractId];
    if (query.store_id !== undefined) (where.push('store_id = ?'), params.push(Number(query.store_id)));
    if (query.status !== undefined) (where.push('status = ?'), params.push(query.status));
    if (query.start_at_from !== undefined) (where.push('start_at >= ?'), params.push(ms(query.start_at_from)));
    if (query.start_at_to !== undefined) (where.push('start_at <= ?'), params.push(ms(query.start_at_to)));
    // Without a sort the reservations come in start order, as a reservation book reads.
    const sort = page.sort.length ? page.sort : [{ field: 'startAt' as const, desc: false }];
    const sql = `SELECT * FROM reservations WHERE ${where.join(' AND ')} ${orderBy(sort, SORT_COLUMNS, 'reservation_id')} LIMIT ? OFFSET ?`;
    return this.db.prepare(sql).all(...params, fetchSize(page), offsetOf(page)) as ReservationRow[];
  }

  private resolveStaff(contractId: string, staff: { staffId: string; staffName?: string | null }) {
    const master = this.lookups.findStaff(contractId, staff.staffId);
    if (!master) throw InvalidInput.field('staff.staffId', `staff ${staff.staffId} does not exist`);
    if (staff.staffName != null) return { staffId: master.staff_id, staffName: staff.staffName };
    // 4.13: the name taken from the staff master obeys the same character rules as one sent.
    const problem = nameCharacterProblem(master.staff_name);
    if (problem) throw InvalidInput.field('staff.staffName', `the staff master's name of staff ${staff.staffId} ${problem}; send staffName`);
    return { staffId: master.staff_id, staffName: master.staff_name };
  }

  private replaceTables(contractId: string, reservationId: number, tables: TableRow[]): void {
    this.clearTables.run(contractId, reservationId);
    tables.forEach((t, i) => this.addTable.run(contractId, reservationId, t.table_id, i + 1));
  }
}
