import { Decimal } from 'decimal.js';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage, updateRow, updConditions, type Condition } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { formatDecimal } from '../../domain/money.js';
import { assertNotTakenBelowZero, pointsDueToExpire } from '../../domain/points.js';
import { ConflictError, InvalidInput } from '../../domain/errors.js';
import type { Page, UpdRange } from '../../platform/http/paging.js';
import { CustomerGroupRepo } from '../customer-groups/repo.js';
import {
  CUSTOMER_GROUP_FIELDS,
  DATE_FIELD_NAMES,
  DATE_FIELDS,
  TEXT_FIELD_NAMES,
  TEXT_FIELDS,
  type AddPoint,
  type CreateCustomer,
  type CustomerGroupField,
  type ListCustomerPointsQuery,
  type ListCustomersQuery,
  type SetPoint,
  type UpdateCustomer,
} from './schema.js';

export interface CustomerRow {
  contract_id: string;
  customer_id: number;
  customer_code: string;
  customer_no: string | null;
  rank: string | null;
  staff_rank: string | null;
  last_name: string;
  first_name: string;
  last_kana: string | null;
  first_kana: string | null;
  post_code: string | null;
  address: string | null;
  phone_number: string | null;
  fax_number: string | null;
  mobile_number: string | null;
  mail_address: string | null;
  mail_address2: string | null;
  mail_address3: string | null;
  company_name: string | null;
  department_name: string | null;
  managerial_position: string | null;
  sex: '0' | '1' | '2';
  birth_date: string | null;
  /** Decimal text in its shortest form: the balance sales and the point routes move. */
  point: string;
  mile: string;
  point_expire_date: string | null;
  last_come_at: number | null;
  entry_date: string | null;
  leave_date: string | null;
  point_giving_unit_price: string | null;
  point_giving_unit: string | null;
  pin_code: string | null;
  passport_no: string | null;
  nationality: string | null;
  alphabet_name: string | null;
  mail_receive_flag: '0' | '1';
  note: string | null;
  note2: string | null;
  favorite_list: string | null;
  browsing_list: string | null;
  status: '0' | '1';
  store_id: number | null;
  customer_group_id: number | null;
  customer_group_id2: number | null;
  customer_group_id3: number | null;
  customer_group_id4: number | null;
  customer_group_id5: number | null;
  ins_at: number;
  upd_at: number;
}

/**
 * Why a balance moved (customer_point_movements.cause): the point routes (manual_set,
 * manual_add), points or miles given with POST/PATCH /customers (customer_write), expiry past
 * pointExpireDate (expire), member sales and their return-cancels (sale, return_cancel) and
 * PATCH /transactions/{id}/customer (sale_attach: the member the sale's points move to;
 * sale_detach: the member they leave).
 */
export type PointCause =
  | 'manual_set'
  | 'manual_add'
  | 'customer_write'
  | 'expire'
  | 'sale'
  | 'return_cancel'
  | 'sale_attach'
  | 'sale_detach'
  // POST /transactions/{id}/cancel: the points and miles the cancelled sale moved go back.
  | 'sale_cancel';

/** Who asked for a change: the API client, and the staff member of a user token. */
export interface Actor {
  clientId: string | null;
  staffId: string | null;
}

export interface PointDelta {
  point?: Decimal;
  mile?: Decimal;
}

export interface MovementRef {
  /** The transaction the movement belongs to (sales, return-cancels, attaching a member). */
  transactionHeadId?: string | number | null;
  actor?: Actor | null;
  /**
   * Let the balance go below zero (member sales and return-cancels as they always have); by
   * default a movement leaving a balance below zero is a 400 and nothing is written.
   */
  allowNegative?: boolean;
  /** The request fields a below-zero 400 names; default `point` and `mile`. */
  fields?: { point?: string; mile?: string };
}

export interface PointMovementRow {
  contract_id: string;
  movement_id: number;
  customer_id: number;
  cause: PointCause;
  point_delta: string;
  point_after: string;
  mile_delta: string;
  mile_after: string;
  transaction_head_id: number | null;
  client_id: string | null;
  staff_id: number | null;
  moved_at: number;
}

/** customerGroupId → customer_group_id, customerGroupId2 → customer_group_id2, … */
const groupColumn = (field: CustomerGroupField) => field.replace('customerGroupId', 'customer_group_id');

/** Body field → column of the fields a POST or PATCH stores as sent (after validation). */
const COLUMNS: Record<string, string> = {
  customerCode: 'customer_code',
  lastName: 'last_name',
  firstName: 'first_name',
  lastKana: 'last_kana',
  firstKana: 'first_kana',
  rank: 'rank',
  sex: 'sex',
  mailReceiveFlag: 'mail_receive_flag',
  pointGivingUnitPrice: 'point_giving_unit_price',
  pointGivingUnit: 'point_giving_unit',
  pinCode: 'pin_code',
  status: 'status',
  storeId: 'store_id',
  ...Object.fromEntries(TEXT_FIELD_NAMES.map((f) => [f, TEXT_FIELDS[f].column])),
  ...Object.fromEntries(DATE_FIELD_NAMES.map((f) => [f, DATE_FIELDS[f]])),
  ...Object.fromEntries(CUSTOMER_GROUP_FIELDS.map((f) => [f, groupColumn(f)])),
};
const INSERT_COLUMNS = Object.entries(COLUMNS);
const SORT_COLUMNS = { customerId: 'customer_id', customerCode: 'customer_code', customerNo: 'customer_no', lastKana: 'last_kana', updDateTime: 'upd_at' };
const POINT_SORT_COLUMNS = { customerId: 'customer_id', updDateTime: 'upd_at' };
/** A positive balance, on the TEXT decimal column (shortest form: no "+", "-0" or "0.0"). */
const POSITIVE_POINT = "point <> '0' AND point NOT LIKE '-%'";

type GroupValues = Partial<Record<CustomerGroupField, number | null>>;

/** Members (customers): supporting master of member sales (spec 2.13 customerId), and their point balances. */
export class CustomerRepo extends MasterRepo<CustomerRow, keyof typeof SORT_COLUMNS> {
  private readonly byCode;
  private readonly pointKey;
  private readonly insertPointKey;
  private readonly storeExists;
  private readonly setBalance;
  private readonly setExpireDate;
  private readonly insertMovement;
  private readonly movementsOf;
  private readonly dueToExpire;
  private readonly groups;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'customer', columns: COLUMNS, sort: SORT_COLUMNS });
    this.groups = new CustomerGroupRepo(db, writer, ids, clock);
    this.byCode = db.prepare('SELECT customer_id FROM customers WHERE contract_id = ? AND customer_code = ?');
    this.pointKey = db.prepare('SELECT body_hash, customer_id FROM point_request_keys WHERE contract_id = ? AND request_key = ?');
    this.insertPointKey = db.prepare('INSERT INTO point_request_keys (contract_id, request_key, body_hash, customer_id, created_at) VALUES (?, ?, ?, ?, ?)');
    this.storeExists = db.prepare('SELECT 1 FROM stores WHERE contract_id = ? AND store_id = ?').pluck();
    this.setBalance = db.prepare('UPDATE customers SET point = ?, mile = ?, upd_at = ? WHERE contract_id = ? AND customer_id = ?');
    this.setExpireDate = db.prepare('UPDATE customers SET point_expire_date = ?, upd_at = ? WHERE contract_id = ? AND customer_id = ?');
    this.insertMovement = db.prepare(
      `INSERT INTO customer_point_movements (contract_id, movement_id, customer_id, cause, point_delta, point_after,
         mile_delta, mile_after, transaction_head_id, client_id, staff_id, moved_at)
       VALUES (@contractId, @movementId, @customerId, @cause, @pointDelta, @pointAfter,
         @mileDelta, @mileAfter, @transactionHeadId, @clientId, @staffId, @now)`,
    );
    this.movementsOf = db.prepare('SELECT * FROM customer_point_movements WHERE contract_id = ? AND customer_id = ? ORDER BY moved_at, movement_id');
    this.dueToExpire = db.prepare(
      `SELECT * FROM customers WHERE contract_id = ? AND point_expire_date < ? AND ${POSITIVE_POINT} ORDER BY customer_id`,
    );
  }

  findByCode(contractId: string, customerCode: string): CustomerRow | undefined {
    const hit = this.byCode.get(contractId, customerCode) as { customer_id: number } | undefined;
    return hit && this.find(contractId, hit.customer_id);
  }

  create(contractId: string, input: CreateCustomer, actor: Actor | null = null): CustomerRow {
    return this.writer.write(() => {
      this.assertCodeFree(contractId, input.customerCode, null);
      const groups = this.assertGroups(contractId, input);
      this.assertStore(contractId, input.storeId);
      assertGivingUnit(input.pointGivingUnitPrice ?? null, input.pointGivingUnit ?? null);
      const sent = input as Record<string, unknown>;
      const fields: Record<string, unknown> = {
        ...Object.fromEntries(INSERT_COLUMNS.map(([f]) => [f, sent[f] ?? null])),
        ...groups,
        ...storedForms(input),
        sex: input.sex ?? '0',
        mailReceiveFlag: input.mailReceiveFlag ?? '1',
        status: input.status ?? '0',
      };
      const customerId = this.insertRow(contractId, {
        customer_id: this.ids.next('customers'),
        point: '0',
        mile: '0',
        ...Object.fromEntries(INSERT_COLUMNS.map(([f, column]) => [column, fields[f] ?? null])),
      });
      // Points and miles given with the member are a movement from nothing, like any other.
      const initial = balanceTargets(this.get(contractId, customerId), input);
      this.movePoints(contractId, customerId, initial, 'customer_write', { actor });
      return this.get(contractId, customerId);
    });
  }

  /** The path target first (404), then the code, groups and store in the body (400); a refused PATCH writes nothing. */
  update(contractId: string, customerId: string, patch: UpdateCustomer, actor: Actor | null = null): CustomerRow {
    return this.writer.write(() => {
      const current = this.get(contractId, customerId);
      if (patch.customerCode !== undefined) this.assertCodeFree(contractId, patch.customerCode, current.customer_id);
      this.assertStore(contractId, patch.storeId);
      assertGivingUnit(
        patch.pointGivingUnitPrice === undefined ? current.point_giving_unit_price : patch.pointGivingUnitPrice,
        patch.pointGivingUnit === undefined ? current.point_giving_unit : patch.pointGivingUnit,
      );
      const values: Record<string, unknown> = { ...patch, ...this.assertGroups(contractId, patch), ...storedForms(patch) };
      const changed = updateRow(this.db, this.ref, contractId, current.customer_id, values, COLUMNS, this.clock.now().getTime());
      const targets = balanceTargets(current, patch);
      // A balance change reports itself, with its movement (balance only); other fields report here.
      if (changed) this.writer.changed({ contractId, entity: 'customer', id: String(current.customer_id), op: 'update' });
      this.movePoints(contractId, current.customer_id, targets, 'customer_write', { actor });
      return this.get(contractId, customerId);
    });
  }

  /**
   * Moves a member's points and miles by `delta` and records the movement with its cause (and
   * its transaction and actor), in the caller's write when there is one. Unless `ref.allowNegative`,
   * domain/points.ts assertNotTakenBelowZero refuses (naming `ref.fields`) a movement that takes a
   * balance below zero, and nothing is written. A zero movement writes and records nothing and
   * answers the row as it was. Throws NotFoundError for an unknown member: callers look the member up first.
   */
  movePoints(contractId: string, customerId: string | number, delta: PointDelta, cause: PointCause, ref: MovementRef = {}): CustomerRow {
    return this.writer.write(() => {
      const row = this.get(contractId, customerId);
      const pointDelta = delta.point ?? new Decimal(0);
      const mileDelta = delta.mile ?? new Decimal(0);
      if (pointDelta.isZero() && mileDelta.isZero()) return row;
      const point = pointDelta.plus(row.point);
      const mile = mileDelta.plus(row.mile);
      if (!ref.allowNegative) {
        assertNotTakenBelowZero(row.customer_id, { point: row.point, mile: row.mile }, { point: pointDelta, mile: mileDelta }, {
          point: ref.fields?.point ?? 'point',
          mile: ref.fields?.mile ?? 'mile',
        });
      }
      const now = this.clock.now().getTime();
      this.setBalance.run(formatDecimal(point), formatDecimal(mile), now, contractId, row.customer_id);
      const movementId = this.ids.next('customer_point_movements');
      this.insertMovement.run({
        contractId,
        movementId: Number(movementId),
        customerId: row.customer_id,
        cause,
        pointDelta: formatDecimal(pointDelta),
        pointAfter: formatDecimal(point),
        mileDelta: formatDecimal(mileDelta),
        mileAfter: formatDecimal(mile),
        transactionHeadId: ref.transactionHeadId === undefined || ref.transactionHeadId === null ? null : Number(ref.transactionHeadId),
        clientId: ref.actor?.clientId ?? null,
        staffId: ref.actor?.staffId === undefined || ref.actor?.staffId === null ? null : Number(ref.actor.staffId),
        now,
      });
      this.writer.changed({ contractId, entity: 'customer', id: String(row.customer_id), op: 'update', balanceOnly: true });
      this.writer.changed({ contractId, entity: 'customer_point_movement', id: movementId, op: 'insert' });
      return this.get(contractId, row.customer_id);
    });
  }

  /**
   * Adds points and miles of a member sale (or takes them back: deltas may be negative, and so
   * may the result). Runs inside the caller's write; an unknown member is left alone (spec
   * 2.13: an unknown member id is stored, member points are not updated). Recorded as a
   * movement of `cause` (default sale) for `transactionHeadId`.
   */
  addPoints(
    contractId: string,
    customerId: string,
    pointDelta: Decimal,
    mileDelta: Decimal,
    cause: PointCause = 'sale',
    transactionHeadId: string | number | null = null,
  ): void {
    this.writer.write(() => {
      if (!this.find(contractId, customerId)) return;
      this.movePoints(contractId, customerId, { point: pointDelta, mile: mileDelta }, cause, { transactionHeadId, allowNegative: true });
    });
  }

  /** PATCH /customers/{id}/point: the balances become the values sent; pointExpireDate when sent. */
  setPoints(contractId: string, customerId: string, body: SetPoint, actor: Actor | null): CustomerRow {
    return this.writer.write(() => {
      const current = this.get(contractId, customerId);
      this.movePoints(contractId, current.customer_id, balanceTargets(current, body), 'manual_set', { actor });
      this.applyExpireDate(contractId, current.customer_id, body.pointExpireDate);
      return this.get(contractId, current.customer_id);
    });
  }

  /**
   * POST /customers/{id}/point/add: points past their expiry date (before `today`) expire first
   * (a movement of their own), then the values sent are added; a result below zero is a 400
   * naming the field and nothing is written, not even the expiry.
   */
  addPointsManually(
    contractId: string,
    customerId: string,
    body: AddPoint,
    actor: Actor | null,
    today: string,
    retry?: { key: string; bodyHash: string },
  ): CustomerRow {
    return this.writer.write(() => {
      const current = this.get(contractId, customerId);
      if (retry) {
        // A retry of an add already made answers the balance without adding again.
        const known = this.pointKey.get(contractId, retry.key) as { body_hash: string; customer_id: number } | undefined;
        if (known) {
          if (known.body_hash !== retry.bodyHash || known.customer_id !== current.customer_id) {
            throw ConflictError.field('Idempotency-Key', 'was used for another point add (another member or body)');
          }
          return current;
        }
        this.insertPointKey.run(contractId, retry.key, retry.bodyHash, current.customer_id, this.clock.now().getTime());
      }
      this.expireIfDue(contractId, current, today, actor);
      const delta = { point: body.point === undefined ? undefined : new Decimal(body.point), mile: body.mile === undefined ? undefined : new Decimal(body.mile) };
      this.movePoints(contractId, current.customer_id, delta, 'manual_add', { actor });
      this.applyExpireDate(contractId, current.customer_id, body.pointExpireDate);
      return this.get(contractId, current.customer_id);
    });
  }

  /**
   * GET /customers/point: members' balances, after the points of every member past their
   * expiry date (before `today`) have expired. Filter: customer_id.
   */
  listPoints(contractId: string, query: ListCustomerPointsQuery, page: Page<keyof typeof POINT_SORT_COLUMNS>, today: string): CustomerRow[] {
    this.expireAllDue(contractId, today);
    const conditions: Condition[] = [['customer_id = ?', query.customer_id === undefined ? undefined : Number(query.customer_id)]];
    return selectFilteredPage<CustomerRow, keyof typeof POINT_SORT_COLUMNS>(this.db, this.ref, contractId, conditions, page, POINT_SORT_COLUMNS);
  }

  /** The point movements of a member, oldest first. */
  movements(contractId: string, customerId: string | number): PointMovementRow[] {
    return this.movementsOf.all(contractId, customerId) as PointMovementRow[];
  }

  list(contractId: string, query: ListCustomersQuery, page: Page<keyof typeof SORT_COLUMNS> & UpdRange): CustomerRow[] {
    const conditions: Condition[] = [
      ['customer_code = ?', query.customer_code],
      ['customer_no = ?', query.customer_no],
      ['pin_code = ?', query.pin_code],
      ['rank = ?', query.rank],
      ['status = ?', query.status],
      ...updConditions(page),
    ];
    return selectFilteredPage<CustomerRow, keyof typeof SORT_COLUMNS>(this.db, this.ref, contractId, conditions, page, SORT_COLUMNS);
  }

  /**
   * Points past their expiry date expire: the balance becomes 0 (a movement `expire`) and the
   * expiry date, which belonged to the expired points, is cleared. The date itself is the last
   * day the points can be used.
   */
  private expireIfDue(contractId: string, row: CustomerRow, today: string, actor: Actor | null): void {
    const expiring = pointsDueToExpire(row.point, row.point_expire_date, today);
    if (expiring === null) return;
    this.movePoints(contractId, row.customer_id, { point: expiring.neg() }, 'expire', { actor });
    this.setExpireDate.run(null, this.clock.now().getTime(), contractId, row.customer_id);
  }

  private expireAllDue(contractId: string, today: string): void {
    if (!(this.dueToExpire.all(contractId, today) as CustomerRow[]).length) return;
    this.writer.write(() => {
      for (const row of this.dueToExpire.all(contractId, today) as CustomerRow[]) this.expireIfDue(contractId, row, today, null);
    });
  }

  /** pointExpireDate of the point routes: unchanged when absent, cleared by null or "". */
  private applyExpireDate(contractId: string, customerId: number, date: string | null | undefined): void {
    if (date === undefined) return;
    const row = this.get(contractId, customerId);
    if (row.point_expire_date === date) return;
    this.setExpireDate.run(date, this.clock.now().getTime(), contractId, customerId);
    this.writer.changed({ contractId, entity: 'customer', id: String(customerId), op: 'update' });
  }

  private assertCodeFree(contractId: string, code: string, selfId: number | null): void {
    const other = this.byCode.get(contractId, code) as { customer_id: number } | undefined;
    if (other && other.customer_id !== selfId) {
      throw InvalidInput.field('customerCode', `customer code ${code} is already used by customer ${other.customer_id}`);
    }
  }

  private assertStore(contractId: string, storeId: string | null | undefined): void {
    if (typeof storeId === 'string' && this.storeExists.get(contractId, Number(storeId)) === undefined) {
      throw InvalidInput.field('storeId', `store ${storeId} does not exist`);
    }
  }

  /**
   * The group ids sent, as stored (null clears): each must be a customer group of the contract
   * in the section of its field — customerGroupId section 1, customerGroupId2 section 2, …
   */
  private assertGroups(contractId: string, input: Partial<Record<CustomerGroupField, string | null>>): GroupValues {
    const values: GroupValues = {};
    CUSTOMER_GROUP_FIELDS.forEach((field, i) => {
      const given = input[field];
      if (given === undefined || given === null) {
        if (given === null) values[field] = null;
        return;
      }
      const group = this.groups.find(contractId, given);
      if (!group) throw InvalidInput.field(field, `customer group ${given} does not exist`);
      const section = i + 1;
      if (group.section_id !== section) {
        throw InvalidInput.field(field, `customer group ${given} belongs to section ${group.section_id}; ${field} takes a group of section ${section}`);
      }
      values[field] = group.customer_group_id;
    });
    return values;
  }
}

/** The movement that makes the balances the `point` and `mile` sent (absent: unchanged). */
function balanceTargets(row: CustomerRow, sent: { point?: string; mile?: string }): PointDelta {
  return {
    point: sent.point === undefined ? undefined : new Decimal(sent.point).minus(row.point),
    mile: sent.mile === undefined ? undefined : new Decimal(sent.mile).minus(row.mile),
  };
}

const isZero = (d: PointDelta) => (d.point?.isZero() ?? true) && (d.mile?.isZero() ?? true);

/** Values stored in another form than sent: the store id as a number, the giving unit in its shortest decimal form. */
function storedForms(sent: { storeId?: string | null; pointGivingUnitPrice?: string | null; pointGivingUnit?: string | null }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (sent.storeId !== undefined) out.storeId = sent.storeId === null ? null : Number(sent.storeId);
  for (const f of ['pointGivingUnitPrice', 'pointGivingUnit'] as const) {
    const v = sent[f];
    if (v !== undefined) out[f] = v === null ? null : formatDecimal(v);
  }
  return out;
}

/** A member's own point giving unit is both values or neither: the 400 names the one missing. */
function assertGivingUnit(price: string | null, unit: string | null): void {
  if ((price === null) === (unit === null)) return;
  const missing = price === null ? 'pointGivingUnitPrice' : 'pointGivingUnit';
  const other = price === null ? 'pointGivingUnit' : 'pointGivingUnitPrice';
  throw InvalidInput.field(missing, `is required when ${other} is set (a member's own point giving unit is both values or neither)`);
}
