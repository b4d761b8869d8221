import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../server/cli/args.js';
import { checkDownload, lanAddress, publicBaseUrl, signedDownloadUrl } from '../../server/jobs/csv-export/downloads.js';
import type { Right } from '../../server/platform/http/rights.js';
import { hashPasswordSync } from '../../server/platform/auth/password.js';
import { StaffLoginRepo } from '../../server/platform/auth/staff-logins.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/**
 * Issue 13 item 1: POST /transactions/details/out_file_async refuses every request spec 4.11
 * lists as a 400, naming the field; scopes and plans. (The exports themselves:
 * transaction-exports.test.ts.)
 */
const PATH = '/transactions/details/out_file_async';
const FROM = '2026-11-01T00:00:00+09:00';
const TO = '2026-11-30T23:59:59+09:00';
const VALID = { transactionDateTimeFrom: FROM, transactionDateTimeTo: TO, callbackUrl: 'http://127.0.0.1:9/csv' };

describe('POST /transactions/details/out_file_async: validation (spec 4.11)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const detail = async (body: Record<string, unknown>) => problem(await t.api('POST', PATH, body), 400).detail;

  it('the transaction time range is required, ordered and at most 31 days', async () => {
    expect(await detail({ transactionDateTimeTo: TO })).toBe('[transactionDateTimeFrom] is required');
    expect(await detail({ transactionDateTimeFrom: FROM })).toBe('[transactionDateTimeTo] is required');
    expect(await detail({ ...VALID, transactionDateTimeTo: '2026-10-31T23:59:59+09:00' })).toBe(
      '[transactionDateTimeTo] must not be earlier than transactionDateTimeFrom',
    );
    // 31 days and one second is over; exactly 31 days (any offset) is allowed.
    expect(await detail({ ...VALID, transactionDateTimeTo: '2026-12-02T00:00:01+09:00' })).toBe(
      '[transactionDateTimeTo] the range from transactionDateTimeFrom may span at most 31 days',
    );
    expect((await t.api('POST', PATH, { ...VALID, transactionDateTimeTo: '2026-12-01T15:00:00Z' })).statusCode).toBe(200);
    expect(await detail({ ...VALID, transactionDateTimeFrom: '2026-11-01' })).toBe('[transactionDateTimeFrom] must be a date-time like 2026-11-22T10:00:00+09:00');
  });

  it('a staff login needs sales_view to export (an export reads every sale); an app token needs only the scope', async () => {
    const userToken = async (code: string, rights: Right[]) => {
      const staffId = (await t.api('POST', '/staffs', { staffName: code, staffCode: code })).json().staffId;
      new StaffLoginRepo(t.deps.db, t.deps.writer, t.clock).set(t.contractId, staffId, hashPasswordSync('correct horse 1'), rights);
      const client = t.createClient(t.contractId, ['pos.transactions:read', 'pos.transactions:write']);
      const res = await t.app.inject({
        method: 'POST',
        url: `/app/${t.contractId}/token`,
        headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=password&username=${code}&password=correct%20horse%201`,
      });
      return res.json().access_token as string;
    };
    const clerk = await userToken('S101', ['daily_closing']);
    const refused = await t.api('POST', PATH, VALID, clerk);
    expect(problem(refused, 403).detail).toBe('[right] the user token lacks the right sales_view');
    expect((await t.api('POST', PATH, VALID, await userToken('S102', ['sales_view']))).statusCode).toBe(200);
    expect((await t.api('POST', PATH, VALID)).statusCode).toBe(200);
  });

  it('each To earlier than its From is a 400 naming the To', async () => {
    expect(await detail({ ...VALID, transactionHeadIdFrom: '20', transactionHeadIdTo: '3' })).toBe(
      '[transactionHeadIdTo] must not be earlier than transactionHeadIdFrom',
    );
    expect(
      await detail({ ...VALID, terminalTranDateTimeFrom: '2026-11-10T10:00:00+09:00', terminalTranDateTimeTo: '2026-11-10T09:59:59+09:00' }),
    ).toBe('[terminalTranDateTimeTo] must not be earlier than terminalTranDateTimeFrom');
    expect(await detail({ ...VALID, sumDateFrom: '2026-11-10', sumDateTo: '2026-11-09' })).toBe('[sumDateTo] must not be earlier than sumDateFrom');
    expect(await detail({ ...VALID, updDateTimeFrom: '2026-11-10T10:00:00Z', updDateTimeTo: '2026-11-10T18:59:59+09:00' })).toBe(
      '[updDateTimeTo] must not be earlier than updDateTimeFrom',
    );
    // Equal bounds are a range of one instant, not an error; id bounds compare as numbers.
    expect((await t.api('POST', PATH, { ...VALID, transactionHeadIdFrom: '9', transactionHeadIdTo: '10', sumDateFrom: '2026-11-10', sumDateTo: '2026-11-10' })).statusCode).toBe(200);
  });

  it('sumDate outside sumDateFrom to sumDateTo', async () => {
    const range = { ...VALID, sumDateFrom: '2026-11-10', sumDateTo: '2026-11-20' };
    expect(await detail({ ...range, sumDate: '2026-11-09' })).toBe('[sumDate] must not be earlier than sumDateFrom (2026-11-10)');
    expect(await detail({ ...range, sumDate: '2026-11-21' })).toBe('[sumDate] must not be later than sumDateTo (2026-11-20)');
    expect(await detail({ ...VALID, sumDateTo: '2026-11-20', sumDate: '2026-11-21' })).toBe('[sumDate] must not be later than sumDateTo (2026-11-20)');
    expect((await t.api('POST', PATH, { ...range, sumDate: '2026-11-20' })).statusCode).toBe(200);
    expect(await detail({ ...VALID, sumDate: '2026-02-30' })).toBe('[sumDate] must be a calendar date YYYY-MM-DD from 1900');
  });

  it('only header divisions 1 and 10 (as a string, or the integer SDKs send)', async () => {
    for (const division of ['2', '3', '0', 2, 'x']) {
      expect(await detail({ ...VALID, transactionHeadDivision: division })).toBe('[transactionHeadDivision] only 1 (normal) and 10 (hold) are supported');
    }
    for (const division of ['1', '10', 1, 10]) expect((await t.api('POST', PATH, { ...VALID, transactionHeadDivision: division })).statusCode).toBe(200);
    expect(await detail({ ...VALID, customerSaleDivision: '2' })).toBe('[customerSaleDivision] must be 0 (non-member sale) or 1 (member sale)');
    expect((await t.api('POST', PATH, { ...VALID, customerSaleDivision: 1 })).statusCode).toBe(200);
  });

  it('unknown fields or sort names', async () => {
    expect(await detail({ ...VALID, fields: 'transactionHeadId,productNam' })).toBe('[fields] productNam is not a CSV field');
    // A header field the CSV does not carry is unknown too (only the columns 4.11 names).
    expect(await detail({ ...VALID, fields: 'total' })).toBe('[fields] total is not a CSV field');
    expect(await detail({ ...VALID, fields: 'details.productName' })).toBe('[fields] details.productName: fields of the second level and below cannot be chosen');
    expect(await detail({ ...VALID, fields: ',' })).toMatch(/^\[fields\] names no field, only commas/);
    expect(await detail({ ...VALID, sort: 'storeId,total:desc' })).toBe(
      '[sort] total:desc is not a sort key; use transactionHeadId, transactionDetailId, transactionDetailDivision, transactionDateTime, transactionHeadDivision, storeId, terminalId, customerId, terminalTranId, terminalTranDateTime, sumDate, updDateTime with an optional :desc',
    );
    expect((await t.api('POST', PATH, { ...VALID, fields: 'productName, transactionHeadId', sort: 'sumDate:desc,transactionDetailId' })).statusCode).toBe(200);
  });

  it('a callbackUrl that is not http(s), an unknown key, a bad Request-Code', async () => {
    for (const url of ['ftp://example.com/x', 'javascript:alert(1)', 'callback', 'file:///etc/passwd', '']) {
      expect(await detail({ ...VALID, callbackUrl: url })).toBe('[callbackUrl] must be an http:// or https:// URL');
    }
    expect(await detail({ ...VALID, state: 'x'.repeat(256) })).toBe('[state] must be at most 255 characters');
    expect(await detail({ ...VALID, storeIds: '1' })).toBe('[storeIds] is not a known field');
    const res = await t.app.inject({
      method: 'POST',
      url: `/${t.contractId}/pos${PATH}`,
      headers: { authorization: `Bearer ${t.token}`, 'request-code': 'has space' },
      payload: VALID,
    });
    expect(problem(res, 400).detail).toBe('[request-code] must be 1 to 64 printable ASCII characters');
  });

  it('answers {callbackUrl, state, requestCode} at once; scopes :write to request, :read for progress', async () => {
    const res = await t.api('POST', PATH, { ...VALID, state: 'abc' });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer).toEqual({ callbackUrl: VALID.callbackUrl, state: 'abc', requestCode: expect.stringMatching(/^\d+$/) });

    const reader = await t.tokenFor({ scopes: ['pos.transactions:read'] });
    expect(problem(await t.api('POST', PATH, VALID, reader), 403).detail).toBe('[scope] the token lacks the scope pos.transactions:write');
    expect((await t.api('GET', `${PATH}/${answer.requestCode}`, undefined, reader)).json()).toMatchObject({ requestCode: answer.requestCode, state: 'abc' });
    const writer = await t.tokenFor({ scopes: ['pos.transactions:write'] });
    expect(problem(await t.api('GET', `${PATH}/${answer.requestCode}`, undefined, writer), 403).detail).toBe(
      '[scope] the token lacks the scope pos.transactions:read',
    );
    expect(problem(await t.api('GET', `${PATH}/nope`), 404).detail).toBe('[request_code] no export has the inquiry code nope');
  });

  it('plans: the five of 4.11 may call it, Enterprise may not', async () => {
    t.addContract('ent', 'enterprise');
    const token = await t.tokenFor({ contractId: 'ent' });
    const res = await t.app.inject({ method: 'POST', url: `/ent/pos${PATH}`, headers: { authorization: `Bearer ${token}` }, payload: VALID });
    expect(problem(res, 403).detail).toBe(
      "the contract's plan enterprise cannot use POST /transactions/details/out_file_async (plans: standard, premium, premium_plus, food_business, retail_business)",
    );
    const progress = await t.app.inject({ method: 'GET', url: `/ent/pos${PATH}/1`, headers: { authorization: `Bearer ${token}` } });
    expect(problem(progress, 403).detail).toMatch(/^the contract's plan enterprise cannot use GET \/transactions\/details\/out_file_async\/\{request_code\}/);
  });
});

describe('download URLs: the public base and the signature', () => {
  it('serve --public-url (or POS_PUBLIC_URL) sets the base; by default it is where the server listens', () => {
    expect(parseCommand(['serve', '--public-url', 'http://192.168.1.20:8080/'], {})).toMatchObject({ name: 'serve', publicUrl: 'http://192.168.1.20:8080' });
    expect(parseCommand(['serve'], { POS_PUBLIC_URL: 'https://shop.example/pos' })).toMatchObject({ publicUrl: 'https://shop.example/pos' });
    expect(parseCommand(['serve'], {})).not.toHaveProperty('publicUrl');
    for (const bad of ['ftp://x', 'shop-pc:8080', 'http://x/?a=1']) {
      expect(() => parseCommand(['serve', '--public-url', bad], {})).toThrow(UsageError);
    }
    expect(publicBaseUrl('http://shop-pc.local:8080', { address: '127.0.0.1', family: 'IPv4', port: 1 })).toBe('http://shop-pc.local:8080');
    expect(publicBaseUrl(undefined, { address: '127.0.0.1', family: 'IPv4', port: 8080 })).toBe('http://127.0.0.1:8080');
    expect(publicBaseUrl(undefined, { address: '::1', family: 'IPv6', port: 8080 })).toBe('http://[::1]:8080');
    expect(publicBaseUrl(undefined, { address: '192.168.1.20', family: 'IPv4', port: 8080 })).toBe('http://192.168.1.20:8080');
    // On every interface: this PC's LAN address, which the terminals and the receiver can reach.
    expect(publicBaseUrl(undefined, { address: '0.0.0.0', family: 'IPv4', port: 8080 })).toBe(`http://${lanAddress() ?? '127.0.0.1'}:8080`);
  });

  it('the signature covers the path and the expiry', () => {
    const key = Buffer.alloc(32, 7);
    const url = new URL(signedDownloadUrl('http://pc:1', key, 'transaction-details-1001.csv.gz', 1_800_000_000_000));
    expect(url.pathname).toBe('/downloads/transaction-details-1001.csv.gz');
    const expires = url.searchParams.get('expires')!;
    const signature = url.searchParams.get('signature')!;
    expect(expires).toBe('1800000000');
    expect(checkDownload(key, 'transaction-details-1001.csv.gz', expires, signature, 1_799_999_999_000)).toBe('ok');
    expect(checkDownload(key, 'transaction-details-1001.csv.gz', expires, signature, 1_800_000_001_000)).toBe('expired');
    expect(checkDownload(key, 'transaction-details-1002.csv.gz', expires, signature, 0)).toBe('bad-signature');
    expect(checkDownload(key, 'transaction-details-1001.csv.gz', '1800000001', signature, 0)).toBe('bad-signature');
    expect(checkDownload(Buffer.alloc(32, 8), 'transaction-details-1001.csv.gz', expires, signature, 0)).toBe('bad-signature');
    expect(checkDownload(key, 'transaction-details-1001.csv.gz', undefined, signature, 0)).toBe('bad-signature');
  });
});
