import { Decimal } from 'decimal.js';
import { useEffect, useState } from 'react';
import { call, useApi } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import type { components } from '../../api/schema';
import { readAllPages } from '../../shared/paging';
import { addDays, wallClock, zonedInstant, zonedIso } from '../../shared/zoned';

export type TransactionListItem = components['schemas']['TransactionListItem'];

export const DAYS = 31;
const DAY_MS = 86_400_000;
/** The list's page size at most (POS lists): fewest round trips. */
const PAGE_SIZE = 1000;

export interface DaySales {
  date: string;
  total: Decimal;
  count: number;
}

/** The 31 calendar days ending with `today`, oldest first. */
export const lastDays = (today: string, days = DAYS): string[] => Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));

/**
 * The list's range: the first second of the first day to the last second of today in the zone.
 * The API takes at most 31 × 24 h; a DST change in the period could pass that by an hour, so the
 * range is cut there (the lost hour is the last one of today).
 */
export function rangeOf(days: readonly string[], zone: string): { from: string; to: string } {
  const from = zonedInstant(days[0]!, '00:00', zone);
  const to = Math.min(zonedInstant(addDays(days[days.length - 1]!, 1), '00:00', zone) - 1000, from + DAYS * DAY_MS);
  return { from: zonedIso(from, zone), to: zonedIso(to, zone) };
}

/**
 * Sums sales per day, the way the closing report counts them (server/domain/closing-report.ts):
 * sale transactions (transactionHeadDivision 1, asked of the API) that are not cancelled
 * (cancelDivision 1); a return-cancel carries negative amounts and takes its source back. The
 * day is the sale's terminal time (terminalTranDateTime) in the contract's zone.
 */
export function sumByDay(transactions: readonly TransactionListItem[], days: readonly string[], zone: string): DaySales[] {
  const byDay = new Map(days.map((date) => [date, { date, total: new Decimal(0), count: 0 }]));
  for (const tx of transactions) {
    if (tx.transactionHeadDivision !== '1' || tx.cancelDivision === '1') continue;
    const at = tx.terminalTranDateTime ?? tx.transactionDateTime;
    if (!at) continue;
    const day = byDay.get(wallClock(Date.parse(at), zone).date);
    if (!day) continue;
    day.total = day.total.plus(new Decimal(tx.total ?? '0'));
    day.count += 1;
  }
  return days.map((date) => byDay.get(date)!);
}

export type SalesResult = { state: 'loading' } | { state: 'error'; problem: ProblemView } | { state: 'done'; days: DaySales[]; truncated: boolean; storeId: string };

/** Loads every sale of the 31 days (all pages) for one store or all (`storeId` ''). */
export function useDailySales(storeId: string, today: string, zone: string, reload: number): SalesResult {
  const { api, contract } = useApi();
  const [result, setResult] = useState<SalesResult>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setResult({ state: 'loading' });
    const days = lastDays(today);
    const { from, to } = rangeOf(days, zone);
    void readAllPages(
      (page) =>
        call(
          api.GET('/{contract_id}/pos/transactions', {
            params: {
              path: contract,
              query: {
                'terminal_tran_date_time-from': from,
                'terminal_tran_date_time-to': to,
                transaction_head_division: '1',
                ...(storeId ? { store_id: storeId } : {}),
                fields: 'transactionHeadId,transactionHeadDivision,cancelDivision,terminalTranDateTime,transactionDateTime,total',
                sort: 'transactionHeadId',
                limit: String(PAGE_SIZE),
                page: String(page),
              },
            },
          }),
        ),
      { maxPages: 500 },
    ).then((r) => {
      if (!live) return;
      setResult(r.ok ? { state: 'done', days: sumByDay(r.data, days, zone), truncated: !!r.truncated, storeId } : { state: 'error', problem: r.problem });
    });
    return () => {
      live = false;
    };
  }, [api, contract, storeId, today, zone, reload]);
  return result;
}
