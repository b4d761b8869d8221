import type { LightMyRequestResponse } from 'fastify';
import type { Adjustment } from '../../server/sales/closing/settlement-schema.js';
import type { TestApp } from '../helpers/app.js';

/** Fixtures of the closing tests (settlements, closings, automatic closing): masters and sales through HTTP. */

/** The day the closing tests sell and close on, a time of it (or of another date) in Tokyo, and a count of no cash. */
export const DAY = '2026-11-22';
export const at = (time: string, date = DAY): string => `${date}T${time}+09:00`;
export const NO_CASH = { preparationCash: '0', saving: '0' };

/**
 * Moves the test clock to `when` and answers the same app with a token issued then (the
 * token of makeTestApp expires an hour after 10:00, and closing tests live in the evening).
 */
export async function startAt(t: TestApp, when: string): Promise<TestApp> {
  t.clock.set(when);
  const token = await t.tokenFor();
  return { ...t, token, api: (method, path, body, tok = token) => t.api(method, path, body, tok) };
}

export async function ok(t: TestApp, method: string, path: string, body?: unknown) {
  const res = await t.api(method, path, body);
  if (res.statusCode !== 200) throw new Error(`${method} ${path} failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A store with the given settings (closing, cash), and its id. */
export async function makeStore(t: TestApp, settings: Record<string, string> = {}, storeName = 'Store'): Promise<string> {
  return (await ok(t, 'POST', '/stores', { storeName, ...settings })).storeId;
}

export async function makeTerminal(t: TestApp, storeId: string, terminalName = 'Register'): Promise<string> {
  return (await ok(t, 'POST', '/terminals', { storeId, terminalName }))[0].terminalId;
}

export interface SaleOptions {
  storeId: string;
  terminalId: string;
  /** terminalTranDateTime */
  at: string;
  /** Amount of the one non-taxable line (the total). */
  amount: string;
  /** Part of the total paid by credit card; the rest is cash. */
  creditTotal?: string;
  /** '1': a cancelled sale (kept, moves no cash). */
  cancelDivision?: '1';
}

/** A normal sale (division 1) of one non-taxable line, registered unprocessed through POST /transactions. */
export async function sale(t: TestApp, o: SaleOptions): Promise<string> {
  const body = {
    transactionHeadDivision: '1',
    storeId: o.storeId,
    terminalId: o.terminalId,
    terminalTranDateTime: o.at,
    ...(o.creditTotal ? { creditTotal: o.creditTotal } : {}),
    ...(o.cancelDivision ? { cancelDivision: o.cancelDivision } : {}),
    details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'Item', salesPrice: o.amount, quantity: '1', taxDivision: '2' }],
  };
  return (await ok(t, 'POST', '/transactions', body)).transactionHeadId;
}

/** A deposit (2), withdrawal (3), custody money (4) or custody refund (5) of `amount`. */
export async function cashMove(t: TestApp, division: '2' | '3' | '4' | '5', o: Omit<SaleOptions, 'creditTotal' | 'cancelDivision'>): Promise<string> {
  const body = { transactionHeadDivision: division, storeId: o.storeId, terminalId: o.terminalId, terminalTranDateTime: o.at, total: o.amount };
  return (await ok(t, 'POST', '/transactions', body)).transactionHeadId;
}

/** Return-cancel (4.7) of a transaction; the id of the new, negated transaction. */
export async function returnCancel(t: TestApp, transactionId: string, at: string): Promise<string> {
  return (await ok(t, 'POST', `/transactions/${transactionId}/dispose`, { terminalTranDateTime: at })).transactionHeadId;
}

/** sumDivision and sumDate of a transaction, as GET /transactions/{id} answers them. */
export async function closingState(t: TestApp, transactionId: string): Promise<{ sumDivision: string; sumDate: string | null }> {
  const { sumDivision, sumDate } = await ok(t, 'GET', `/transactions/${transactionId}`);
  return { sumDivision, sumDate };
}

export async function settle(t: TestApp, body: Record<string, unknown>): Promise<Adjustment> {
  return ok(t, 'POST', '/adjustments', body);
}

export const closeDay = (t: TestApp, body: Record<string, unknown>): Promise<LightMyRequestResponse> => t.api('POST', '/daily_summaries', body);

/**
 * Inserts `count` settled cash sales of `amount` yen for a store with SQL, for the 20,000-row
 * performance scenario only (registering them through HTTP would take minutes). Columns are
 * those of the shared transactions contract; the rest take their NOT NULL minimums. Rows go
 * 500 to a statement: on PostgreSQL each statement is a round trip to the server.
 */
export function insertSettledSales(t: TestApp, o: { storeId: string; terminalIds: string[]; count: number; at: number; amount: number }): void {
  const db = t.deps.db;
  const BATCH = 500;
  const row = "(?, ?, ?, '1', '0', ?, '00', ?, 0, ?, ?, 0, 0, ?, ?, ?, '1', ?, '0', ?, ?)";
  const insert = (rows: number) =>
    db.prepare(
      `INSERT INTO transactions (contract_id, transaction_head_id, transaction_at, transaction_head_division, cancel_division,
         total, rounding_division, cash_total, credit_total, deposit, deposit_cash, deposit_credit, change,
         store_id, terminal_id, terminal_tran_at, sum_division, adjustment_at, dispose_division, upd_at, ins_at)
       VALUES ${Array.from({ length: rows }, () => row).join(', ')}`,
    );
  const full = insert(BATCH);
  const units = o.amount * 1000;
  db.transaction(() => {
    for (let start = 0; start < o.count; start += BATCH) {
      const size = Math.min(BATCH, o.count - start);
      const values = Array.from({ length: size }, (_, k) => {
        const i = start + k;
        const at = o.at + i;
        const terminalId = Number(o.terminalIds[i % o.terminalIds.length]);
        return [t.contractId, 900_000_000 + i, at, units, units, units, units, Number(o.storeId), terminalId, at, at, at, at];
      }).flat();
      (size === BATCH ? full : insert(size)).run(values);
    }
  })();
}
