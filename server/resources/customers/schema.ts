import { z } from 'zod';
import type { DecimalFormat } from '../../domain/money.js';
import { formatDateTime } from '../../domain/time.js';
import { clearable, decimalText, halfWidthCode, id, name, oneOf, patchBody, text } from '../../http/fields.js';
import { pageQuery, POS_PAGE } from '../../http/paging.js';
import type { CustomerRow } from './repo.js';

/** Points and miles entered directly: whole numbers of up to 9 digits (sales may add beyond that). */
export const POINT: DecimalFormat = { integerDigits: 9, fractionDigits: 0 };

export const CUSTOMER_STATUSES = ['0', '1'] as const; // 0 active, 1 suspended

/** customerGroupId takes a group of section 1, customerGroupId2 of section 2, and so on. */
export const CUSTOMER_GROUP_FIELDS = ['customerGroupId', 'customerGroupId2', 'customerGroupId3', 'customerGroupId4', 'customerGroupId5'] as const;
export type CustomerGroupField = (typeof CUSTOMER_GROUP_FIELDS)[number];

const groupOut = (section: number) => z.string().nullable().describe(`customer group of section ${section}; null when none`);

export const customer = z
  .object({
    customerId: z.string(),
    customerCode: z.string().describe('1 to 20 half-width characters, unique in the contract'),
    lastName: z.string(),
    firstName: z.string(),
    lastKana: z.string().nullable(),
    firstKana: z.string().nullable(),
    rank: z.string().nullable().describe('customer rank code; null when none'),
    point: z.string().describe('exact decimal; whole points of up to 9 digits on direct entry, sales may add beyond that'),
    mile: z.string().describe('exact decimal, as point'),
    customerGroupId: groupOut(1),
    customerGroupId2: groupOut(2),
    customerGroupId3: groupOut(3),
    customerGroupId4: groupOut(4),
    customerGroupId5: groupOut(5),
    pinCode: z.string().nullable().describe('free string identifying the member (spec 2.13 customerPinCode)'),
    status: z.enum(CUSTOMER_STATUSES).describe('0 active, 1 suspended'),
    insDateTime: z.string(),
    updDateTime: z.string(),
  })
  .meta({ id: 'Customer' });

export type Customer = z.infer<typeof customer>;

export const customerParams = z.object({ customer_id: id() });

const customerCode = halfWidthCode(20);
const personName = name(30);
const groupId = clearable(id()).optional();

const writable = {
  customerCode,
  lastName: personName,
  firstName: personName,
  lastKana: clearable(text(30)).optional(),
  firstKana: clearable(text(30)).optional(),
  rank: clearable(halfWidthCode(20)).optional(),
  point: decimalText(POINT).optional(),
  mile: decimalText(POINT).optional(),
  customerGroupId: groupId,
  customerGroupId2: groupId,
  customerGroupId3: groupId,
  customerGroupId4: groupId,
  customerGroupId5: groupId,
  pinCode: clearable(text(20)).optional(),
  status: oneOf(CUSTOMER_STATUSES).optional(),
};

export const createCustomerBody = z.strictObject(writable);

export const updateCustomerBody = patchBody({
  ...writable,
  customerCode: customerCode.optional(),
  lastName: personName.optional(),
  firstName: personName.optional(),
});

export const CUSTOMER_SORT = ['customerId', 'customerCode', 'lastKana', 'updDateTime'] as const;

export const listCustomersQuery = z.strictObject({
  customer_code: text(20).optional(),
  pin_code: text(20).optional(),
  rank: text(20).optional(),
  status: oneOf(CUSTOMER_STATUSES).optional(),
  ...pageQuery(CUSTOMER_SORT, POS_PAGE),
});

export type CreateCustomer = z.infer<typeof createCustomerBody>;
export type UpdateCustomer = z.infer<typeof updateCustomerBody>;
export type ListCustomersQuery = z.infer<typeof listCustomersQuery>;

const idText = (v: number | null) => (v === null ? null : String(v));

export function presentCustomer(row: CustomerRow, zone: string): Customer {
  return {
    customerId: String(row.customer_id),
    customerCode: row.customer_code,
    lastName: row.last_name,
    firstName: row.first_name,
    lastKana: row.last_kana,
    firstKana: row.first_kana,
    rank: row.rank,
    point: row.point,
    mile: row.mile,
    customerGroupId: idText(row.customer_group_id),
    customerGroupId2: idText(row.customer_group_id2),
    customerGroupId3: idText(row.customer_group_id3),
    customerGroupId4: idText(row.customer_group_id4),
    customerGroupId5: idText(row.customer_group_id5),
    pinCode: row.pin_code,
    status: row.status,
    insDateTime: formatDateTime(row.ins_at, zone),
    updDateTime: formatDateTime(row.upd_at, zone),
  };
}
