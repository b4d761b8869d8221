import type { Decimal } from 'decimal.js';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { formatDecimal } from '../../domain/money.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { Page } from '../../http/paging.js';
import { CustomerGroupRepo } from '../customer-groups/repo.js';
import { CUSTOMER_GROUP_FIELDS, type CreateCustomer, type CustomerGroupField, type ListCustomersQuery, type UpdateCustomer } from './schema.js';

export interface CustomerRow {
  contract_id: string;
  customer_id: number;
  customer_code: string;
  last_name: string;
  first_name: string;
  last_kana: string | null;
  first_kana: string | null;
  rank: string | null;
  /** Decimal text in its shortest form. */
  point: string;
  mile: string;
  customer_group_id: number | null;
  customer_group_id2: number | null;
  customer_group_id3: number | null;
  customer_group_id4: number | null;
  customer_group_id5: number | null;
  pin_code: string | null;
  status: '0' | '1';
  ins_at: number;
  upd_at: number;
}

/** customerGroupId → customer_group_id, customerGroupId2 → customer_group_id2, … */
const groupColumn = (field: CustomerGroupField) => field.replace('customerGroupId', 'customer_group_id');

const COLUMNS: Record<string, string> = {
  customerCode: 'customer_code',
  lastName: 'last_name',
  firstName: 'first_name',
  lastKana: 'last_kana',
  firstKana: 'first_kana',
  rank: 'rank',
  point: 'point',
  mile: 'mile',
  pinCode: 'pin_code',
  status: 'status',
  ...Object.fromEntries(CUSTOMER_GROUP_FIELDS.map((f) => [f, groupColumn(f)])),
};
const CUSTOMERS = { table: 'customers', key: 'customer_id' };
const SORT_COLUMNS = { customerId: 'customer_id', customerCode: 'customer_code', lastKana: 'last_kana', updDateTime: 'upd_at' };

type GroupValues = Partial<Record<CustomerGroupField, number | null>>;

/** Members (customers): supporting master of member sales (spec 2.13 customerId). */
export class CustomerRepo {
  private readonly byId;
  private readonly byCode;
  private readonly insert;
  private readonly setPoints;
  private readonly groups;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.groups = new CustomerGroupRepo(db, writer, ids, clock);
    this.byId = db.prepare('SELECT * FROM customers WHERE contract_id = ? AND customer_id = ?');
    this.byCode = db.prepare('SELECT customer_id FROM customers WHERE contract_id = ? AND customer_code = ?');
    this.insert = db.prepare(
      `INSERT INTO customers (contract_id, customer_id, customer_code, last_name, first_name, last_kana, first_kana, rank, point, mile,
         customer_group_id, customer_group_id2, customer_group_id3, customer_group_id4, customer_group_id5, pin_code, status, ins_at, upd_at)
       VALUES (@contractId, @customerId, @customerCode, @lastName, @firstName, @lastKana, @firstKana, @rank, @point, @mile,
         @customerGroupId, @customerGroupId2, @customerGroupId3, @customerGroupId4, @customerGroupId5, @pinCode, @status, @now, @now)`,
    );
    this.setPoints = db.prepare('UPDATE customers SET point = ?, mile = ?, upd_at = ? WHERE contract_id = ? AND customer_id = ?');
  }

  find(contractId: string, customerId: string | number): CustomerRow | undefined {
    return this.byId.get(contractId, customerId) as CustomerRow | undefined;
  }

  get(contractId: string, customerId: string): CustomerRow {
    const row = this.find(contractId, customerId);
    if (!row) throw NotFound.field('customer_id', `customer ${customerId} does not exist`);
    return row;
  }

  create(contractId: string, input: CreateCustomer): CustomerRow {
    return this.writer.write(() => {
      this.assertCodeFree(contractId, input.customerCode, null);
      const groups = this.assertGroups(contractId, input);
      const customerId = this.ids.next('customers');
      this.insert.run({
        contractId,
        customerId,
        customerCode: input.customerCode,
        lastName: input.lastName,
        firstName: input.firstName,
        lastKana: input.lastKana ?? null,
        firstKana: input.firstKana ?? null,
        rank: input.rank ?? null,
        point: formatDecimal(input.point ?? '0'),
        mile: formatDecimal(input.mile ?? '0'),
        ...Object.fromEntries(CUSTOMER_GROUP_FIELDS.map((f) => [f, groups[f] ?? null])),
        pinCode: input.pinCode ?? null,
        status: input.status ?? '0',
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'customer', id: customerId, op: 'insert' });
      return this.get(contractId, customerId);
    });
  }

  /** The path target first (404), then the code and groups in the body (400); a refused PATCH writes nothing. */
  update(contractId: string, customerId: string, patch: UpdateCustomer): CustomerRow {
    return this.writer.write(() => {
      const current = this.get(contractId, customerId);
      if (patch.customerCode !== undefined) this.assertCodeFree(contractId, patch.customerCode, current.customer_id);
      const values = {
        ...patch,
        ...this.assertGroups(contractId, patch),
        point: patch.point === undefined ? undefined : formatDecimal(patch.point),
        mile: patch.mile === undefined ? undefined : formatDecimal(patch.mile),
      };
      if (updateRow(this.db, CUSTOMERS, contractId, current.customer_id, values, COLUMNS, this.clock.now().getTime())) {
        this.writer.changed({ contractId, entity: 'customer', id: String(current.customer_id), op: 'update' });
      }
      return this.get(contractId, customerId);
    });
  }

  /**
   * Adds points and miles of a member sale (or takes them back: deltas may be negative, and so
   * may the result). Runs inside the caller's write; an unknown member is left alone (spec
   * 2.13: an unknown member id is stored, member points are not updated).
   */
  addPoints(contractId: string, customerId: string, pointDelta: Decimal, mileDelta: Decimal): void {
    this.writer.write(() => {
      const row = this.find(contractId, customerId);
      if (!row) return;
      const point = formatDecimal(pointDelta.plus(row.point));
      const mile = formatDecimal(mileDelta.plus(row.mile));
      this.setPoints.run(point, mile, this.clock.now().getTime(), contractId, row.customer_id);
      this.writer.changed({ contractId, entity: 'customer', id: String(row.customer_id), op: 'update' });
    });
  }

  list(contractId: string, query: ListCustomersQuery, page: Page<keyof typeof SORT_COLUMNS>): CustomerRow[] {
    const filters = { customer_code: query.customer_code, pin_code: query.pin_code, rank: query.rank, status: query.status };
    return selectPage<CustomerRow, keyof typeof SORT_COLUMNS>(this.db, CUSTOMERS, contractId, filters, page, SORT_COLUMNS);
  }

  private assertCodeFree(contractId: string, code: string, selfId: number | null): void {
    const other = this.byCode.get(contractId, code) as { customer_id: number } | undefined;
    if (other && other.customer_id !== selfId) {
      throw BadRequest.field('customerCode', `customer code ${code} is already used by customer ${other.customer_id}`);
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
      if (!group) throw BadRequest.field(field, `customer group ${given} does not exist`);
      const section = i + 1;
      if (group.section_id !== section) {
        throw BadRequest.field(field, `customer group ${given} belongs to section ${group.section_id}; ${field} takes a group of section ${section}`);
      }
      values[field] = group.customer_group_id;
    });
    return values;
  }
}
