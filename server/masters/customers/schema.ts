import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { decimalError, type DecimalFormat } from '../../domain/money.js';
import { formatDateTime } from '../../domain/time.js';
import { clearable, date, decimalText, halfWidthCode, id, name, oneOf, patchBody, text } from '../../platform/http/fields.js';
import { idParams, masterQuery, masterRecord, pagedQuery, patchOf, type Presenter, presenterOf } from '../../platform/http/list-schemas.js';
import type { CustomerRow } from './repo.js';

/** Points and miles entered directly: whole numbers of up to 9 digits (sales may add beyond that). */
export const POINT: DecimalFormat = { integerDigits: 9, fractionDigits: 0 };
/** A relative change of points or miles (POST /customers/{id}/point/add): signed, up to 9 digits. */
export const POINT_DELTA: DecimalFormat = { ...POINT, signed: true };
/** A member's own point giving unit (as the store's): amount 1 to 99999 yen, points up to 5 digits and 2 decimals. */
export const GIVING_UNIT_PRICE: DecimalFormat = { integerDigits: 5, fractionDigits: 0 };
export const GIVING_UNIT: DecimalFormat = { integerDigits: 5, fractionDigits: 2 };

export const CUSTOMER_STATUSES = ['0', '1'] as const; // 0 active, 1 suspended
export const SEXES = ['0', '1', '2'] as const; // 0 unknown, 1 male, 2 female
export const MAIL_RECEIVE_FLAGS = ['0', '1'] as const; // 0 refused, 1 allowed

/** customerGroupId takes a group of section 1, customerGroupId2 of section 2, and so on. */
export const CUSTOMER_GROUP_FIELDS = ['customerGroupId', 'customerGroupId2', 'customerGroupId3', 'customerGroupId4', 'customerGroupId5'] as const;
export type CustomerGroupField = (typeof CUSTOMER_GROUP_FIELDS)[number];

/**
 * The platform's free-text member fields (customer operations of the platform reference), each
 * with its column and its length; all nullable, cleared by null or "". Phone and fax numbers
 * and the member number are half-width (printable ASCII) as on the platform.
 */
export const TEXT_FIELDS = {
  customerNo: { column: 'customer_no', max: 20, ascii: true },
  staffRank: { column: 'staff_rank', max: 20 },
  postCode: { column: 'post_code', max: 10 },
  address: { column: 'address', max: 85 },
  phoneNumber: { column: 'phone_number', max: 20, ascii: true },
  faxNumber: { column: 'fax_number', max: 20, ascii: true },
  mobileNumber: { column: 'mobile_number', max: 20, ascii: true },
  mailAddress: { column: 'mail_address', max: 256 },
  mailAddress2: { column: 'mail_address2', max: 256 },
  mailAddress3: { column: 'mail_address3', max: 256 },
  companyName: { column: 'company_name', max: 85 },
  departmentName: { column: 'department_name', max: 85 },
  managerialPosition: { column: 'managerial_position', max: 85 },
  passportNo: { column: 'passport_no', max: 20 },
  nationality: { column: 'nationality', max: 85 },
  alphabetName: { column: 'alphabet_name', max: 85 },
  note: { column: 'note', max: 1000 },
  note2: { column: 'note2', max: 1000 },
  favoriteList: { column: 'favorite_list', max: 1000 },
  browsingList: { column: 'browsing_list', max: 1000 },
} as const satisfies Record<string, { column: string; max: number; ascii?: boolean }>;
export type TextField = keyof typeof TEXT_FIELDS;
export const TEXT_FIELD_NAMES = Object.keys(TEXT_FIELDS) as TextField[];

/** Calendar dates of a member, YYYY-MM-DD. */
export const DATE_FIELDS = {
  birthDate: 'birth_date',
  pointExpireDate: 'point_expire_date',
  entryDate: 'entry_date',
  leaveDate: 'leave_date',
} as const;
export type DateField = keyof typeof DATE_FIELDS;
export const DATE_FIELD_NAMES = Object.keys(DATE_FIELDS) as DateField[];

const nullableText = (description: string) => z.string().nullable().describe(description);
const groupOut = (section: number) => z.string().nullable().describe(`customer group of section ${section}; null when none`);

export const customer = masterRecord('Customer', {
  customerId: z.string(),
  customerCode: z.string().describe('1 to 20 half-width characters, unique in the contract'),
  customerNo: nullableText('member number, up to 20 half-width characters'),
  rank: z.string().nullable().describe('customer rank code; null when none'),
  staffRank: nullableText('staff rank of a member who is staff'),
  lastName: z.string(),
  firstName: z.string(),
  lastKana: z.string().nullable(),
  firstKana: z.string().nullable(),
  postCode: nullableText('postal code'),
  address: nullableText('address'),
  phoneNumber: nullableText('phone number'),
  faxNumber: nullableText('fax number'),
  mobileNumber: nullableText('mobile phone number'),
  mailAddress: nullableText('mail address'),
  mailAddress2: nullableText('mail address 2'),
  mailAddress3: nullableText('mail address 3'),
  companyName: nullableText('company name'),
  departmentName: nullableText('department name'),
  managerialPosition: nullableText('position'),
  sex: z.enum(SEXES).describe('0 unknown, 1 male, 2 female'),
  birthDate: nullableText('YYYY-MM-DD'),
  point: z.string().describe('exact decimal; whole points of up to 9 digits on direct entry, sales may add beyond that'),
  mile: z.string().describe('exact decimal, as point'),
  pointExpireDate: nullableText('YYYY-MM-DD: the points expire after this date'),
  lastComeDateTime: nullableText('last visit; set by the server'),
  entryDate: nullableText('YYYY-MM-DD, date of joining'),
  leaveDate: nullableText('YYYY-MM-DD, date of leaving'),
  pointGivingUnitPrice: nullableText("the member's own point giving unit: amount (yen); with pointGivingUnit"),
  pointGivingUnit: nullableText("the member's own point giving unit: points given per pointGivingUnitPrice"),
  pinCode: z.string().nullable().describe('free string identifying the member (spec 2.13 customerPinCode)'),
  passportNo: nullableText('passport number'),
  nationality: nullableText('nationality'),
  alphabetName: nullableText('name in the Latin alphabet'),
  mailReceiveFlag: z.enum(MAIL_RECEIVE_FLAGS).describe('0 refuses mail, 1 allows it'),
  note: nullableText('note'),
  note2: nullableText('note 2'),
  favoriteList: nullableText('product codes, comma separated'),
  browsingList: nullableText('product codes, comma separated'),
  status: z.enum(CUSTOMER_STATUSES).describe('0 active, 1 suspended'),
  storeId: nullableText('the store the member belongs to'),
  customerGroupId: groupOut(1),
  customerGroupId2: groupOut(2),
  customerGroupId3: groupOut(3),
  customerGroupId4: groupOut(4),
  customerGroupId5: groupOut(5),
});

export type Customer = z.infer<typeof customer>;

export const customerParams = idParams('customer_id');

const customerCode = halfWidthCode(20);
const personName = name(30);
const groupId = clearable(id()).optional();
/** Printable half-width characters (space included), 1 to `max`. */
const ascii = (max: number) => z.string().regex(new RegExp(`^[ -~]{1,${max}}$`), `must be 1 to ${max} half-width characters`);
const mapFields = <K extends string, V>(keys: readonly K[], make: (key: K) => V) =>
  Object.fromEntries(keys.map((k) => [k, make(k)])) as Record<K, V>;
const atLeastOne = (format: DecimalFormat) =>
  decimalText(format).refine((s) => decimalError(s, format) !== null || new Decimal(s).gte(1), { message: 'must be from 1 to 99999' });

const writable = {
  customerCode,
  ...mapFields(TEXT_FIELD_NAMES, (f) => {
    const spec: { max: number; ascii?: boolean } = TEXT_FIELDS[f];
    return clearable(spec.ascii ? ascii(spec.max) : text(spec.max)).optional();
  }),
  ...mapFields(DATE_FIELD_NAMES, () => clearable(date).optional()),
  lastName: personName,
  firstName: personName,
  lastKana: clearable(text(30)).optional(),
  firstKana: clearable(text(30)).optional(),
  rank: clearable(halfWidthCode(20)).optional(),
  sex: oneOf(SEXES).optional(),
  mailReceiveFlag: oneOf(MAIL_RECEIVE_FLAGS).optional(),
  point: decimalText(POINT).optional(),
  mile: decimalText(POINT).optional(),
  pointGivingUnitPrice: clearable(atLeastOne(GIVING_UNIT_PRICE)).optional(),
  pointGivingUnit: clearable(decimalText(GIVING_UNIT)).optional(),
  customerGroupId: groupId,
  customerGroupId2: groupId,
  customerGroupId3: groupId,
  customerGroupId4: groupId,
  customerGroupId5: groupId,
  pinCode: clearable(text(20)).optional(),
  status: oneOf(CUSTOMER_STATUSES).optional(),
  storeId: clearable(id()).optional(),
};

export const createCustomerBody = z.strictObject(writable);

export const updateCustomerBody = patchOf(writable);

export const CUSTOMER_SORT = ['customerId', 'customerCode', 'customerNo', 'lastKana', 'updDateTime'] as const;

export const listCustomersQuery = masterQuery(
  {
    customer_code: text(20).optional(),
    customer_no: text(20).optional(),
    pin_code: text(20).optional(),
    rank: text(20).optional(),
    status: oneOf(CUSTOMER_STATUSES).optional(),
  },
  CUSTOMER_SORT,
);

export type CreateCustomer = z.infer<typeof createCustomerBody>;
export type UpdateCustomer = z.infer<typeof updateCustomerBody>;
export type ListCustomersQuery = z.infer<typeof listCustomersQuery>;

export const presentCustomer: Presenter<CustomerRow, Customer> = presenterOf(customer, {
  lastComeDateTime: (row, zone) => (row.last_come_at === null ? null : formatDateTime(row.last_come_at, zone)),
});

// --- points (GET /customers/point, PATCH /customers/{id}/point, POST /customers/{id}/point/add) ---

export const customerPoint = masterRecord('CustomerPoint', {
  customerId: z.string(),
  mile: z.string(),
  point: z.string(),
  pointExpireDate: z.string().nullable().describe('YYYY-MM-DD: the points expire after this date'),
});

export const customerPointUpdate = z
  .object({
    customerId: z.string(),
    mile: z.string(),
    point: z.string(),
    pointExpireDate: z.string().nullable(),
    updDateTime: z.string(),
    transactionHeadIds: z
      .array(z.string())
      .describe('always empty here: point movements are recorded as point movements, not as point or mile transactions'),
  })
  .meta({ id: 'CustomerPointUpdate' });

export type CustomerPoint = z.infer<typeof customerPoint>;
export type CustomerPointUpdate = z.infer<typeof customerPointUpdate>;

export const POINT_SORT = ['customerId', 'updDateTime'] as const;

export const listCustomerPointsQuery = pagedQuery({ customer_id: id().optional() }, POINT_SORT);

/** PATCH /customers/{id}/point: the balances become the values sent (pointExpireDate unchanged when absent). */
export const setPointBody = patchBody({
  point: decimalText(POINT).optional(),
  mile: decimalText(POINT).optional(),
  pointExpireDate: clearable(date).optional(),
});

/** POST /customers/{id}/point/add: the values sent are added (negative: taken); the result may not be below 0. */
export const addPointBody = patchBody({
  point: decimalText(POINT_DELTA).optional(),
  mile: decimalText(POINT_DELTA).optional(),
  pointExpireDate: clearable(date).optional(),
});

export type ListCustomerPointsQuery = z.infer<typeof listCustomerPointsQuery>;
export type SetPoint = z.infer<typeof setPointBody>;
export type AddPoint = z.infer<typeof addPointBody>;

export const presentCustomerPoint: Presenter<CustomerRow, CustomerPoint> = presenterOf(customerPoint);

export const presentPointUpdate: Presenter<CustomerRow, CustomerPointUpdate> = presenterOf(customerPointUpdate, { transactionHeadIds: () => [] });
