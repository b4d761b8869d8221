import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportDirOf } from '../../server/jobs/csv-export/downloads.js';
import { runnerOf, type ExportRunner, type FinishedExport } from '../../server/jobs/csv-export/runner.js';
import { CSV_COLUMNS, CSV_COLUMN_NAMES } from '../../server/sales/exports/columns.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { ensureDistBuilt } from '../ui/support/build.js';

/**
 * Issue 13 item 7: the export's worker reads the rows and turns them into CSV in batches of 100,
 * handing batches to its CSV thread while that has fewer than three and turning the others itself.
 * Thousands of lines make both threads turn batches (the thread only ever has three); the file
 * must still be every line once, in the requested order, with the values the API reads.
 */
const PATH = '/transactions/details/out_file_async';
const SALES = 4;
const LINES = 600;

describe('CSV export over many batches (worker and CSV thread)', () => {
  let t: TestApp;
  let token: string;
  let runner: ExportRunner;
  let sales: { transactionHeadId: string }[];
  let from: string;
  let to: string;

  beforeAll(async () => {
    await ensureDistBuilt();
  }, 300_000);

  beforeEach(async () => {
    t = await makeTestApp();
    t.clock.set(new Date(Math.floor(Date.now() / 1000) * 1000));
    token = await t.tokenFor();
    runner = runnerOf(t.deps)!;
    const create = async (path: string, body: unknown) => {
      const res = await t.api('POST', path, body, token);
      expect(res.statusCode, res.body).toBe(200);
      const json = res.json();
      return Array.isArray(json) ? json[0] : json;
    };
    const storeId = (await create('/stores', { storeName: 'Main' })).storeId;
    const terminalId = (await create('/terminals', { storeId, terminalName: 'R1' })).terminalId;
    from = new Date(t.clock.now().getTime() - 60_000).toISOString();
    // Names that need quoting (quotes, commas, line breaks), Japanese text, and lines with and
    // without the optional fields, so batches differ from one another.
    const names = ['Tee "Basic", white', 'お茶\n500ml', 'Socks', 'Cap, "limited"', '弁当'];
    sales = [];
    for (let s = 0; s < SALES; s++) {
      t.clock.advance(60_000);
      const details = Array.from({ length: LINES }, (_, i) => ({
        transactionDetailId: String(i + 1),
        transactionDetailDivision: i % 7 === 6 ? '2' : '1',
        productName: `${names[(s + i) % names.length]} ${i}`,
        salesPrice: String(100 + i),
        quantity: String(1 + (i % 3)),
        taxDivision: '0',
        ...(i % 2 ? { productCode: `P-${i}`, unitDiscountPrice: '10' } : {}),
      }));
      const body = { transactionHeadDivision: '1', storeId, terminalId, terminalTranDateTime: t.clock.now().toISOString(), details };
      sales.push(await create('/transactions', body));
    }
    to = new Date(t.clock.now().getTime() + 60_000).toISOString();
  }, 120_000);

  afterEach(async () => {
    await t.close();
  });

  /** Runs an export and answers its file's text. */
  const exportText = async (body: Record<string, unknown>): Promise<string> => {
    const done = new Promise<FinishedExport>((resolve) => runner.once('finished', resolve));
    const res = await t.api('POST', PATH, { transactionDateTimeFrom: from, transactionDateTimeTo: to, ...body }, token);
    expect(res.statusCode, res.body).toBe(200);
    const finished = await done;
    expect(finished).toMatchObject({ requestCode: res.json().requestCode, status: 'succeeded', rows: SALES * LINES });
    const { fileName } = (await t.api('GET', `${PATH}/${finished.requestCode}`, undefined, token)).json();
    return gunzipSync(readFileSync(join(exportDirOf(t.deps.db), fileName))).toString('utf8');
  };

  /** The rows the API's own reads give, header columns then the line's, in sale then line order. */
  const expectedRows = async (names: readonly string[]): Promise<string[][]> => {
    const rows: string[][] = [];
    for (const s of sales) {
      const read = (await t.api('GET', `/transactions/${s.transactionHeadId}`, undefined, token)).json();
      for (const d of read.details) rows.push(names.map((n) => (CSV_COLUMNS.find((c) => c.name === n)!.table === 'header' ? read[n] : d[n]) ?? ''));
    }
    return rows;
  };

  it('every line once, in order, as the API reads it, whichever thread turned its batch', async () => {
    const text = await exportText({});
    // Every field quoted, inner quotes doubled, LF after every record.
    expect(text).toMatch(/^(?:"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*\n)+$/);
    const rows = parse(text) as string[][];
    expect(rows[0]).toEqual(CSV_COLUMN_NAMES);
    expect(rows.slice(1)).toEqual(await expectedRows(CSV_COLUMN_NAMES));
  }, 120_000);

  it('fields and a descending sort, the date-times elsewhere in the row', async () => {
    const fields = ['productName', 'transactionDetailId', 'updDateTime', 'transactionHeadId', 'transactionDateTime'];
    const rows = parse(await exportText({ fields: fields.join(','), sort: 'transactionHeadId:desc,transactionDetailId:desc' })) as string[][];
    expect(rows[0]).toEqual(fields);
    expect(rows.slice(1)).toEqual((await expectedRows(fields)).reverse());
    expect(rows[1]![4]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00$/);
  }, 120_000);
});
