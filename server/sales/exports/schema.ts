import { z } from 'zod';
import { parseDateTime } from '../../domain/time.js';
import { date, dateTime, fieldsParam, id, text } from '../../platform/http/fields.js';
import { pageQuery, POS_PAGE } from '../../platform/http/paging.js';
import { isHttpUrl } from '../../events/webhook-events.js';
import { CSV_COLUMN_NAMES, EXPORT_HEAD_DIVISIONS, EXPORT_SORT, MAX_SPAN_MS } from './columns.js';

const opt = <T extends z.ZodType>(schema: T) => schema.optional();

/**
 * A division the platform's SDKs send as a JSON integer (`"transactionHeadDivision": 1`), others
 * as the string the spec says: both are read as the string.
 */
const division = (values: readonly string[], message: string) =>
  z
    .union([z.string(), z.number().int()])
    .transform((v) => String(v))
    .refine((v) => values.includes(v), { message });

/** The state returned in the notice: free text (the platform allows 20 characters; we are lenient up to 255). */
const STATE_MAX = 255;

const exportSort = pageQuery(EXPORT_SORT, POS_PAGE).sort;

export const exportBody = z
  .strictObject({
    fields: fieldsParam(CSV_COLUMN_NAMES, 'CSV').describe(
      'comma separated CSV columns to output, in that order (all, in the order of spec 4.11, when omitted)',
    ),
    sort: exportSort.describe(`comma separated sort keys (${EXPORT_SORT.join(', ')}), each optionally :desc; default transactionHeadId, transactionDetailId`),
    transactionHeadIdFrom: opt(id()),
    transactionHeadIdTo: opt(id()),
    transactionDateTimeFrom: dateTime.describe('required; the server time range spans at most 31 days'),
    transactionDateTimeTo: dateTime.describe('required'),
    transactionHeadDivision: opt(division(EXPORT_HEAD_DIVISIONS, 'only 1 (normal) and 10 (hold) are supported')),
    storeId: opt(id()),
    terminalTranDateTimeFrom: opt(dateTime),
    terminalTranDateTimeTo: opt(dateTime),
    sumDate: opt(date),
    sumDateFrom: opt(date),
    sumDateTo: opt(date),
    customerSaleDivision: opt(division(['0', '1'], 'must be 0 (non-member sale) or 1 (member sale)')),
    updDateTimeFrom: opt(dateTime),
    updDateTimeTo: opt(dateTime),
    callbackUrl: opt(
      z.string().max(2000, 'must be at most 2000 characters').refine(isHttpUrl, { message: 'must be an http:// or https:// URL' }).meta({ format: 'uri' }),
    ).describe('where the completion notice (6.3) is sent; without it no notice is sent (poll the progress)'),
    state: opt(text(STATE_MAX)).describe('returned as is in the notice'),
  })
  .superRefine((b, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const ms = (v: string | undefined) => (v === undefined ? undefined : (parseDateTime(v) ?? undefined));
    const ordered = (from: number | string | undefined, to: number | string | undefined, name: string) => {
      if (from !== undefined && to !== undefined && to < from) issue(`${name}To`, `must not be earlier than ${name}From`);
    };
    const idOf = (v: string | undefined) => (v === undefined ? undefined : Number(v));
    ordered(idOf(b.transactionHeadIdFrom), idOf(b.transactionHeadIdTo), 'transactionHeadId');
    const from = ms(b.transactionDateTimeFrom);
    const to = ms(b.transactionDateTimeTo);
    if (from !== undefined && to !== undefined) {
      if (to < from) issue('transactionDateTimeTo', 'must not be earlier than transactionDateTimeFrom');
      else if (to - from > MAX_SPAN_MS) issue('transactionDateTimeTo', 'the range from transactionDateTimeFrom may span at most 31 days');
    }
    ordered(ms(b.terminalTranDateTimeFrom), ms(b.terminalTranDateTimeTo), 'terminalTranDateTime');
    ordered(b.sumDateFrom, b.sumDateTo, 'sumDate');
    ordered(ms(b.updDateTimeFrom), ms(b.updDateTimeTo), 'updDateTime');
    if (b.sumDate !== undefined) {
      if (b.sumDateFrom !== undefined && b.sumDate < b.sumDateFrom) issue('sumDate', `must not be earlier than sumDateFrom (${b.sumDateFrom})`);
      if (b.sumDateTo !== undefined && b.sumDate > b.sumDateTo) issue('sumDate', `must not be later than sumDateTo (${b.sumDateTo})`);
    }
  });
export type ExportBody = z.infer<typeof exportBody>;

export const exportHeaders = z.object({
  'request-code': z
    .string()
    .regex(/^[\x21-\x7e]{1,64}$/, 'must be 1 to 64 printable ASCII characters')
    .optional()
    .describe('the inquiry code: the same code answers the same export again and never starts a second one; minted by the server when omitted'),
});

export const exportAccepted = z
  .object({
    callbackUrl: z.string().nullable().describe('as requested; null: no notice is sent'),
    state: z.string(),
    requestCode: z.string().describe('the inquiry code (the Request-Code header, or minted)'),
  })
  .meta({ id: 'TransactionDetailCsvRequest' });
export type ExportAccepted = z.infer<typeof exportAccepted>;

export const EXPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const exportParams = z.object({ request_code: z.string().regex(/^[\x21-\x7e]{1,64}$/, 'must be 1 to 64 printable ASCII characters') });

export const exportProgress = z
  .object({
    requestCode: z.string(),
    status: z.enum(EXPORT_STATUSES).describe('queued (waiting for the export before it), running, succeeded, failed'),
    message: z.string().describe("as the notice says it: '' (success or not finished), 'no data', '500 internal error'"),
    rowsWritten: z.number().int().describe('CSV rows (detail lines) written so far'),
    total: z.number().int().nullable().describe('rows the export will write; null until counted (just after it starts)'),
    callbackUrl: z.string().nullable(),
    state: z.string(),
    fileUrl: z.string().nullable().describe('the signed download URL while it is valid (1 hour after the export finished), else null'),
    fileName: z.string().nullable(),
    fileBytes: z.number().int().nullable().describe('size of the gzip file'),
    requestDateTime: z.string(),
    startDateTime: z.string().nullable(),
    finishDateTime: z.string().nullable(),
    expireDateTime: z.string().nullable().describe('when the download URL stops working'),
  })
  .meta({ id: 'TransactionDetailCsvProgress' });
export type ExportProgress = z.infer<typeof exportProgress>;

export const downloadParams = z.object({ file_name: z.string().regex(/^[\w.-]{1,100}$/, 'is not an export file name') });
export const downloadQuery = z.object({
  expires: z.string().optional().describe('epoch seconds after which the URL is refused (410)'),
  signature: z.string().optional().describe('HMAC-SHA256 of the path and expiry (403 when it does not match)'),
});
