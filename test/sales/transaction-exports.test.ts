import { parse } from 'csv-parse/sync';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../helpers/modules.js';
import { openDeps } from '../../server/deps.js';
import { postgresUrlOf } from '../../server/db/engine.js';
import { runCleanup } from '../../server/jobs/cleanup.js';
import { exportDirOf } from '../../server/jobs/csv-export/downloads.js';
import { runnerOf, type ExportRunner, type FinishedExport } from '../../server/jobs/csv-export/runner.js';
import { CSV_COLUMNS, CSV_COLUMN_NAMES } from '../../server/sales/exports/columns.js';
import { TransactionExportRepo } from '../../server/sales/exports/repo.js';
import { runWebhookPass } from '../../sync/webhooks/deliver.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { ensureDistBuilt } from '../ui/support/build.js';

/**
 * Issue 13 items 2-6: the export runs in a worker thread (the compiled one in dist/, built
 * first), a real receiver on 127.0.0.1 gets the 6.3 notice through the webhook delivery, fetches
 * file_url from the listening server, and csv-parse reads the file back. The clock is set to the
 * real time: standardwebhooks checks webhook-timestamp against it.
 */
const PATH = '/transactions/details/out_file_async';
const PROC_NAME = 'get_transaction_detail_list';

interface Notice {
  url: URL;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  notices: Notice[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const notices: Notice[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://receiver');
      notices.push({ url, query: Object.fromEntries(url.searchParams), headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/csv-done`,
    notices,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const gunzipCsv = (bytes: Buffer): string => gunzipSync(bytes).toString('utf8');
const readCsv = (text: string): string[][] => parse(text, { relax_column_count: false }) as string[][];

describe('transaction detail CSV export (spec 4.11, 6.3)', () => {
  let t: TestApp;
  let rx: Receiver;
  let origin: string;
  let token: string;
  let runner: ExportRunner;
  let store: string;
  let store2: string;
  let sales: Record<string, any>[];
  let from: string;
  let to: string;

  beforeAll(async () => {
    await ensureDistBuilt();
  }, 300_000);

  beforeEach(async () => {
    t = await makeTestApp();
    t.clock.set(new Date(Math.floor(Date.now() / 1000) * 1000));
    token = await t.tokenFor();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    runner = runnerOf(t.deps)!;
    rx = await startReceiver();

    const create = async (path: string, body: unknown) => {
      const res = await t.api('POST', path, body, token);
      expect(res.statusCode, res.body).toBe(200);
      const json = res.json();
      return Array.isArray(json) ? json[0] : json;
    };
    store = (await create('/stores', { storeName: 'Main' })).storeId;
    store2 = (await create('/stores', { storeName: 'Annex' })).storeId;
    const terminal = (await create('/terminals', { storeId: store, terminalName: 'R1' })).terminalId;
    const terminal2 = (await create('/terminals', { storeId: store2, terminalName: 'R1' })).terminalId;
    from = new Date(t.clock.now().getTime() - 60_000).toISOString();
    sales = [];
    const sale = async (storeId: string, terminalId: string, details: Record<string, unknown>[], extra: Record<string, unknown> = {}) => {
      t.clock.advance(60_000);
      const body = { transactionHeadDivision: '1', storeId, terminalId, terminalTranDateTime: t.clock.now().toISOString(), details, ...extra };
      sales.push(await create('/transactions', body));
    };
    const item = (n: number, productName: string, salesPrice: string, quantity = '1', extra: Record<string, unknown> = {}) => ({
      transactionDetailId: String(n),
      transactionDetailDivision: '1',
      productName,
      salesPrice,
      quantity,
      taxDivision: '0',
      ...extra,
    });
    // Quotes, commas, a line break and Japanese text in the values; a member sale; a return line.
    await sale(store, terminal, [item(1, 'Tee "Basic", white', '1200'), item(2, 'お茶\n500ml', '150', '2')]);
    await sale(store2, terminal2, [item(1, 'Socks', '500')], { customerId: '77' });
    await sale(store, terminal, [item(1, 'Cap', '2000'), item(2, 'Cap', '2000', '1', { transactionDetailDivision: '2' }), item(3, 'Pin', '100', '3')]);
    to = new Date(t.clock.now().getTime() + 60_000).toISOString();
  });

  afterEach(async () => {
    await rx.close();
    await t.close();
  });

  /** Requests an export over HTTP and waits until it is finished and its notice delivered. */
  const request = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await fetch(`${origin}/${t.contractId}/pos${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', connection: 'close', ...headers },
      body: JSON.stringify({ transactionDateTimeFrom: from, transactionDateTimeTo: to, callbackUrl: rx.url, ...body }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return { answer: JSON.parse(text) as { callbackUrl: string; state: string; requestCode: string }, headers: res.headers };
  };
  const finished = (requestCode: string) =>
    new Promise<FinishedExport>((resolve) => {
      const on = (f: FinishedExport) => {
        if (f.requestCode !== requestCode) return;
        runner.off('finished', on);
        resolve(f);
      };
      runner.on('finished', on);
    });
  /** Resolves once the export is finished (at once when it already is). */
  const settled = async (requestCode: string) => {
    const status = t.deps.db.prepare('SELECT status FROM transaction_exports WHERE request_code = ?').pluck().get(requestCode);
    if (status !== 'succeeded' && status !== 'failed') await finished(requestCode);
  };
  const exportAndNotice = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const { answer } = await request(body, headers);
    await settled(answer.requestCode);
    const before = rx.notices.length;
    expect((await runWebhookPass(t.deps, { timeoutMs: 5000 })).map((r) => r.outcome)).toEqual(['delivered']);
    expect(rx.notices).toHaveLength(before + 1);
    return { answer, notice: rx.notices.at(-1)! };
  };
  const download = async (url: string) => {
    const res = await fetch(url, { headers: { connection: 'close' } });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const progress = async (code: string, tok = token) => (await t.api('GET', `${PATH}/${code}`, undefined, tok)).json();

  /** The CSV rows the API's own reads say the sales have: header columns, then the lines'. */
  const expectedRows = async (names: readonly string[], only?: (sale: Record<string, any>) => boolean) => {
    const rows: string[][] = [];
    for (const s of sales.filter(only ?? (() => true))) {
      const read = (await t.api('GET', `/transactions/${s.transactionHeadId}`, undefined, token)).json();
      for (const d of read.details) {
        rows.push(names.map((n) => (CSV_COLUMNS.find((c) => c.name === n)!.table === 'header' ? read[n] : d[n]) ?? ''));
      }
    }
    return rows;
  };

  it('the notice reaches callbackUrl, signed; file_url downloads a gzip CSV that reads back as every line of every store', async () => {
    const subscribe = await t.api('POST', '/webhook_subscriptions', { url: rx.url, events: ['pos:transaction-detail-csv'] }, token);
    const { secret } = subscribe.json();
    const { answer, notice } = await exportAndNotice({ state: 'month-11' }, { 'request-code': 'inq-0001' });
    expect(answer).toEqual({ callbackUrl: rx.url, state: 'month-11', requestCode: 'inq-0001' });

    // 6.3: the query parameters, in the spec's order; the same members as the signed JSON body.
    expect(notice.url.pathname).toBe('/csv-done');
    expect([...notice.url.searchParams.keys()]).toEqual(['file_url', 'status', 'message', 'proc_name', 'state', 'request_code']);
    expect(notice.query).toEqual({
      file_url: expect.stringMatching(new RegExp(`^${origin}/downloads/transaction-details-\\d+\\.csv\\.gz\\?expires=\\d+&signature=[\\w-]+$`)),
      status: 'success',
      message: '',
      proc_name: PROC_NAME,
      state: 'month-11',
      request_code: 'inq-0001',
    });
    expect(new Webhook(secret).verify(notice.body, notice.headers as Record<string, string>)).toEqual(notice.query);
    expect(notice.headers['service-event']).toBe('pos:transaction-detail-csv');

    const { res, bytes } = await download(notice.query.file_url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="transaction-details-\d+\.csv\.gz"$/);
    const text = gunzipCsv(bytes);
    const rows = readCsv(text);
    expect(rows[0]).toEqual(CSV_COLUMN_NAMES);
    // The 9 header columns of 4.11, then the 65 line fields transactionDetailId..reduceTaxMemberPrice of 2.13.
    expect(rows[0]).toHaveLength(9 + 65);
    expect(rows[0]!.slice(0, 12)).toEqual([
      'transactionHeadId', 'transactionDateTime', 'transactionHeadDivision', 'storeId', 'terminalId', 'customerId', 'terminalTranDateTime',
      'sumDate', 'updDateTime', 'transactionDetailId', 'parentTransactionDetailId', 'transactionDetailDivision',
    ]);
    expect(rows[0]!.at(-1)).toBe('reduceTaxMemberPrice');
    expect(rows.slice(1)).toEqual(await expectedRows(CSV_COLUMN_NAMES));
    expect(rows.length - 1).toBe(6);
    // Both stores' sales; every field quoted (nulls too), inner quotes doubled, LF line ends, UTF-8.
    expect(new Set(rows.slice(1).map((r) => r[3]))).toEqual(new Set([store, store2]));
    expect(text.split('\n')[0]).toBe(CSV_COLUMN_NAMES.map((n) => `"${n}"`).join(','));
    expect(text).not.toContain('\r');
    expect(text.endsWith('\n')).toBe(true);
    expect(text).toContain('"Tee ""Basic"", white"');
    expect(text).toContain('"お茶\n500ml"');
    // The whole file is records of double-quoted fields (any " inside doubled), separated by commas, each ended by LF.
    expect(text).toMatch(/^(?:"(?:[^"]|"")*"(?:,"(?:[^"]|"")*")*\n)+$/);
    expect(text).toContain(',"",');
    expect(rows[1]![1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00$/); // transactionDateTime in the contract's zone

    // The file in the data dir is the owner's only.
    const [file] = readdirSync(exportDirOf(t.deps.db));
    expect(statSync(join(exportDirOf(t.deps.db), file!)).mode & 0o777).toBe(0o600);
    expect(statSync(exportDirOf(t.deps.db)).mode & 0o777).toBe(0o700);
  });

  it('fields and sort are honoured, and the filters (store, member sale, sumDate...) apply', async () => {
    const fields = ['productName', 'transactionHeadId', 'quantity', 'transactionDetailDivision', 'storeId'];
    const { notice } = await exportAndNotice({ fields: `${fields.join(',')},productName`, sort: 'transactionHeadId:desc,transactionDetailId:desc' });
    const rows = readCsv(gunzipCsv((await download(notice.query.file_url!)).bytes));
    expect(rows[0]).toEqual(fields);
    expect(rows.slice(1)).toEqual((await expectedRows(fields)).reverse());

    const byDivision = await exportAndNotice({ fields: 'transactionHeadId,transactionDetailId,transactionDetailDivision', sort: 'transactionDetailDivision:desc,transactionHeadId' });
    const divisionRows = readCsv(gunzipCsv((await download(byDivision.notice.query.file_url!)).bytes)).slice(1);
    expect(divisionRows[0]![2]).toBe('2');
    expect(divisionRows.slice(1).every((r) => r[2] === '1')).toBe(true);
    expect(divisionRows.slice(1).map((r) => Number(r[0]))).toEqual([...divisionRows.slice(1).map((r) => Number(r[0]))].sort((a, b) => a - b));

    const annex = await exportAndNotice({ storeId: store2, fields: 'storeId,customerId,productName' });
    expect(readCsv(gunzipCsv((await download(annex.notice.query.file_url!)).bytes))).toEqual([['storeId', 'customerId', 'productName'], [store2, '77', 'Socks']]);
    const members = await exportAndNotice({ customerSaleDivision: '1', fields: 'productName' });
    expect(readCsv(gunzipCsv((await download(members.notice.query.file_url!)).bytes))).toEqual([['productName'], ['Socks']]);
    const nonMembers = await exportAndNotice({ customerSaleDivision: '0', fields: 'productName', transactionHeadIdFrom: sales[2]!.transactionHeadId });
    expect(readCsv(gunzipCsv((await download(nonMembers.notice.query.file_url!)).bytes))).toEqual([['productName'], ['Cap'], ['Cap'], ['Pin']]);
  });

  it('nothing matched: the notice says failed / no data, without file_url', async () => {
    const { answer, notice } = await exportAndNotice({ storeId: '999', state: 's' });
    expect(notice.query).toEqual({ status: 'failed', message: 'no data', proc_name: PROC_NAME, state: 's', request_code: answer.requestCode });
    // Division 10 (holds) is accepted; this server registers none.
    const holds = await exportAndNotice({ transactionHeadDivision: 10 });
    expect(holds.notice.query).toMatchObject({ status: 'failed', message: 'no data' });
    expect(await progress(answer.requestCode)).toMatchObject({ status: 'failed', message: 'no data', rowsWritten: 0, total: 0, fileUrl: null, fileName: null });
    expect(existsSync(exportDirOf(t.deps.db)) ? readdirSync(exportDirOf(t.deps.db)) : []).toEqual([]);
  });

  it('the download URL: 403 when tampered with, 410 after an hour, and the clean-up deletes the file', async () => {
    const { answer, notice } = await exportAndNotice({});
    const url = new URL(notice.query.file_url!);
    const signature = url.searchParams.get('signature')!;
    const tampered = async (change: (u: URL) => void) => {
      const u = new URL(url);
      change(u);
      const { res, bytes } = await download(u.toString());
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      return { status: res.status, body: JSON.parse(bytes.toString()) };
    };
    const bad = { status: 403, body: { type: 'about:blank', title: 'Forbidden', status: 403, detail: '[signature] the download URL is not valid: its signature does not match' } };
    expect(await tampered((u) => u.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`))).toEqual(bad);
    expect(await tampered((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)))).toEqual(bad);
    expect(await tampered((u) => u.searchParams.delete('signature'))).toEqual(bad);
    expect(await tampered((u) => (u.pathname = u.pathname.replace(/(\d+)\.csv/, (_m, id) => `${Number(id) + 1000}.csv`)))).toEqual(bad);
    expect((await download(url.toString())).res.status).toBe(200);

    // Valid for one hour from the end of the export.
    t.clock.advance(3600_000);
    expect((await download(url.toString())).res.status).toBe(200);
    t.clock.advance(1000);
    const expired = await tampered(() => {});
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ title: 'Gone', status: 410, detail: expect.stringMatching(/^\[expires\] the download URL expired at .*; request the export again$/) });
    token = await t.tokenFor(); // the earlier token expired with the hour
    expect(await progress(answer.requestCode)).toMatchObject({ status: 'succeeded', fileUrl: null });

    const file = join(exportDirOf(t.deps.db), url.pathname.split('/').pop()!);
    expect(existsSync(file)).toBe(true);
    expect(runCleanup(t.deps, t.clock.now()).exportFiles).toBe(1);
    expect(existsSync(file)).toBe(false);
    expect(runCleanup(t.deps, t.clock.now()).exportFiles).toBe(0);
  });

  it('Request-Code: the same code answers the same export and never starts a second; another body is a 409', async () => {
    const body = { state: 'once', fields: 'productName' };
    const first = await exportAndNotice(body, { 'request-code': 'R-42' });
    const again = await request(body, { 'request-code': 'R-42' });
    expect(again.answer).toEqual(first.answer);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await runWebhookPass(t.deps)).toEqual([]);
    const count = () => t.deps.db.prepare("SELECT COUNT(*) FROM transaction_exports WHERE request_code = 'R-42'").pluck().get();
    expect(count()).toBe(1);
    expect(t.deps.db.prepare('SELECT attempts FROM transaction_exports').pluck().all()).toEqual([1]);

    const res = await fetch(`${origin}/${t.contractId}/pos${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', connection: 'close', 'request-code': 'R-42' },
      body: JSON.stringify({ transactionDateTimeFrom: from, transactionDateTimeTo: to, callbackUrl: rx.url, state: 'twice' }),
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ type: 'about:blank', title: 'Conflict', status: 409, detail: '[Request-Code] R-42 was already used for an export with another body' });

    // Without the header every request is its own export, with a minted code.
    const a = (await request(body)).answer.requestCode;
    const b = (await request(body)).answer.requestCode;
    expect(a).not.toBe(b);
    expect(a).toMatch(/^\d+$/);
  });

  it('progress: queued or running at once, rows written of the total as it goes, then the file URL', async () => {
    runner.progressEvery = 2;
    const seen: { rows: number; total: number | null }[] = [];
    runner.on('progress', (p) => seen.push({ rows: p.rows, total: p.total }));
    const { answer } = await request({}, { 'request-code': 'P-1' });
    const early = await progress('P-1');
    expect(['queued', 'running']).toContain(early.status);
    expect(early).toMatchObject({ requestCode: 'P-1', message: '', fileUrl: null, finishDateTime: null });
    await settled(answer.requestCode);
    expect(seen).toEqual([
      { rows: 0, total: 6 },
      { rows: 2, total: 6 },
      { rows: 4, total: 6 },
      { rows: 6, total: 6 },
    ]);
    // The configured public URL is the base of the link (serve --public-url).
    t.deps.config.publicUrl = 'http://shop-pc.local:8080';
    const done = await progress('P-1');
    expect(done.fileUrl).toMatch(/^http:\/\/shop-pc\.local:8080\/downloads\/transaction-details-\d+\.csv\.gz\?expires=\d+&signature=/);
    t.deps.config.publicUrl = undefined;
    expect(done).toMatchObject({ status: 'succeeded', message: '', rowsWritten: 6, total: 6, fileName: expect.stringMatching(/\.csv\.gz$/) });
    expect(done.fileBytes).toBeGreaterThan(100);
    expect(done.expireDateTime).toMatch(/\+09:00$/);
    expect(Date.parse(done.expireDateTime) - Date.parse(done.finishDateTime)).toBe(3600_000);
    const local = (await progress('P-1')).fileUrl;
    expect((await download(local)).res.status).toBe(200);
    // The notice carries the same URL.
    await runWebhookPass(t.deps);
    expect(rx.notices.at(-1)!.query.file_url).toBe(local);
  });

  it('a queued export is claimed by one runner only (central processes on one database)', async () => {
    const { answer } = await exportAndNotice({ fields: 'productName' }, { 'request-code': 'Q-1' });
    const id = t.deps.db.prepare("SELECT export_id FROM transaction_exports WHERE request_code = 'Q-1'").pluck().get() as string;
    t.deps.db.prepare("UPDATE transaction_exports SET status = 'queued' WHERE export_id = ?").run(id);
    // A second process's handle on the same database (not serving: its runner is not started).
    const postgresUrl = postgresUrlOf(t.deps.db);
    const other = openDeps({ file: t.deps.db.name, ...(postgresUrl ? { postgresUrl } : {}), clock: t.clock });
    try {
      const now = t.clock.now().getTime();
      expect(other.writer.write(() => new TransactionExportRepo(other.db).markRunning(id, now))).toBe(true);
      expect(t.deps.writer.write(() => new TransactionExportRepo(t.deps.db).markRunning(id, now))).toBe(false);
      expect(t.deps.db.prepare('SELECT status, attempts FROM transaction_exports WHERE export_id = ?').get(id)).toEqual({ status: 'running', attempts: 2 });
      expect(answer.requestCode).toBe('Q-1');
    } finally {
      other.db.close();
    }
  });

  it('an export a crash left running is run again on start; one interrupted twice fails with 500 internal error', async () => {
    const first = await exportAndNotice({ fields: 'productName' }, { 'request-code': 'C-1' });
    expect(first.notice.query.status).toBe('success');
    const second = await exportAndNotice({ fields: 'storeId' }, { 'request-code': 'C-2' });
    // As if the server died mid-way: C-1 on its first try, C-2 already on its second.
    t.deps.db.prepare("UPDATE transaction_exports SET status = 'running', rows_written = 3, attempts = 1, file_name = NULL WHERE request_code = 'C-1'").run();
    t.deps.db.prepare("UPDATE transaction_exports SET status = 'running', rows_written = 3, attempts = 2, file_name = NULL WHERE request_code = 'C-2'").run();
    // The server started again on the same database (the data dir's file, or the PostgreSQL database of the test's engine).
    const postgresUrl = postgresUrlOf(t.deps.db);
    const deps = openDeps({ file: t.deps.db.name, ...(postgresUrl ? { postgresUrl } : {}), clock: t.clock, checkResponses: true });
    const app = await buildApp(deps);
    try {
      const status = deps.db.prepare("SELECT status, rows_written FROM transaction_exports WHERE request_code = 'C-1'");
      for (let i = 0; i < 400 && (status.get() as { status: string }).status !== 'succeeded'; i++) await new Promise((r) => setTimeout(r, 50));
      expect(status.get()).toEqual({ status: 'succeeded', rows_written: 6 });
      expect(runnerOf(deps)).not.toBe(runner);
      expect(deps.db.prepare("SELECT status, message, attempts FROM transaction_exports WHERE request_code = 'C-2'").get()).toEqual({
        status: 'failed',
        message: '500 internal error',
        attempts: 2,
      });
      const outcomes = await runWebhookPass(deps);
      expect(outcomes.map((r) => r.outcome)).toEqual(['delivered', 'delivered']);
      const byCode = Object.fromEntries(rx.notices.slice(-2).map((n) => [n.query.request_code, n.query]));
      expect(byCode['C-2']).toEqual({ status: 'failed', message: '500 internal error', proc_name: PROC_NAME, state: '', request_code: 'C-2' });
      expect(byCode['C-1']).toMatchObject({ status: 'success', message: '', file_url: expect.stringContaining('/downloads/') });
      expect(second.answer.requestCode).toBe('C-2');
    } finally {
      await app.close();
      deps.db.close();
    }
  });
});
