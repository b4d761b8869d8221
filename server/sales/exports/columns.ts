// What an export is made of, without zod or Fastify: the worker thread loads this.
import { DETAIL_FIELDS, HEADER_FIELDS, type Field } from '../transactions/catalog.js';

/**
 * The CSV of spec 4.11: the header columns it names, then the detail columns from
 * transactionDetailId through reduceTaxMemberPrice (2.13's order), each stored as catalog.ts says.
 */
const HEADER_COLUMN_NAMES = [
  'transactionHeadId',
  'transactionDateTime',
  'transactionHeadDivision',
  'storeId',
  'terminalId',
  'customerId',
  'terminalTranDateTime',
  'sumDate',
  'updDateTime',
] as const;
const LAST_DETAIL_COLUMN = 'reduceTaxMemberPrice';

export interface CsvColumn extends Field {
  table: 'header' | 'detail';
}

export const CSV_COLUMNS: readonly CsvColumn[] = [
  ...HEADER_COLUMN_NAMES.map((n) => ({ ...HEADER_FIELDS.find((f) => f.name === n)!, table: 'header' as const })),
  ...DETAIL_FIELDS.slice(0, DETAIL_FIELDS.findIndex((f) => f.name === LAST_DETAIL_COLUMN) + 1).map((f) => ({ ...f, table: 'detail' as const })),
];
export const CSV_COLUMN_NAMES = CSV_COLUMNS.map((c) => c.name) as [string, ...string[]];

/** The sort keys of 4.11 (the platform's list). */
export const EXPORT_SORT = [
  'transactionHeadId',
  'transactionDetailId',
  'transactionDetailDivision',
  'transactionDateTime',
  'transactionHeadDivision',
  'storeId',
  'terminalId',
  'customerId',
  'terminalTranId',
  'terminalTranDateTime',
  'sumDate',
  'updDateTime',
] as const;
export type ExportSort = (typeof EXPORT_SORT)[number];

/** 4.11: only 1 (normal) and 10 (hold) may be asked for. */
export const EXPORT_HEAD_DIVISIONS = ['1', '10'] as const;

/** The span of transactionDateTimeFrom..To: at most 31 days (spec 4.11, §8). */
export const MAX_SPAN_MS = 31 * 24 * 3600 * 1000;
/** The download URL of the notice is valid this long (spec 4.11, 6.3, §8). */
export const DOWNLOAD_VALID_MS = 3600 * 1000;

