import { call, type Api, type Result } from '../../api/client';
import type { components } from '../../api/schema';
import { monthUpTo } from '../../shared/zoned';
import { allSalesPages, PAGE_SIZE, transactionsOf, type Adjustment, type Terminal, type Transaction } from '../../shared/sales';

export type Summary = components['schemas']['DailySummaryWithReport'];

/** What the closing screen shows for a store and date. */
export interface ClosingDay {
  terminals: Terminal[];
  /** The closing in force; null when the date is not closed. */
  summary: Summary | null;
  /** Not closed: the settled transactions sold on or before the date (what the closing closes). */
  toClose: Transaction[];
  /** Not closed: the unsettled transactions sold on or before the date (left out unless settled first). */
  unsettled: Transaction[];
  /** Not closed: the store's settlements no closing used yet, made up to the end of the date. */
  settlements: Adjustment[];
  /** Closed: the transactions the closing closed. */
  closed: Transaction[];
  truncated: boolean;
}

type Contract = { contract_id: string };

/**
 * Reads a store's day for the closing. The closing closes every settled sale sold on or before
 * the date; the list API takes at most 31 days, so the screen reads the 31 days that end with
 * the date (a store that closes daily has nothing older).
 */
export async function loadClosingDay(api: Api, contract: Contract, storeId: string, date: string, zone: string): Promise<Result<ClosingDay>> {
  const [terminals, inForce] = await Promise.all([
    call(api.GET('/{contract_id}/pos/terminals', { params: { path: contract, query: { store_id: storeId, limit: '1000' } } })),
    closingInForce(api, contract, storeId, date),
  ]);
  if (!terminals.ok) return terminals;
  if (!inForce.ok) return inForce;
  const summary = inForce.data;
  const empty = { toClose: [], unsettled: [], settlements: [], closed: [], truncated: false };

  if (summary) {
    const closed = await transactionsOf(api, contract, { store_id: storeId, sum_division: '2', 'sum_date-from': date, 'sum_date-to': date });
    if (!closed.ok) return closed;
    return { ok: true, response: closed.response, data: { ...empty, terminals: terminals.data, summary, closed: closed.data, truncated: !!closed.truncated } };
  }

  const range = monthUpTo(date, zone);
  const sold = { store_id: storeId, 'terminal_tran_date_time-from': range.from, 'terminal_tran_date_time-to': range.to };
  const [toClose, unsettled, settlements] = await Promise.all([
    transactionsOf(api, contract, { ...sold, sum_division: '1' }),
    transactionsOf(api, contract, { ...sold, sum_division: '0' }),
    allSalesPages((page) =>
      call(
        api.GET('/{contract_id}/pos/adjustments', {
          params: {
            path: contract,
            query: {
              store_id: storeId,
              'adjustment_date_time-from': range.from,
              'adjustment_date_time-to': range.to,
              limit: String(PAGE_SIZE),
              page: String(page),
              sort: 'adjustmentDateTime',
            },
          },
        }),
      ),
    ),
  ]);
  if (!toClose.ok) return toClose;
  if (!unsettled.ok) return unsettled;
  if (!settlements.ok) return settlements;
  return {
    ok: true,
    response: toClose.response,
    data: {
      ...empty,
      terminals: terminals.data,
      summary: null,
      toClose: toClose.data,
      unsettled: unsettled.data,
      settlements: settlements.data.filter((s) => s.status === 'unclosed'),
      truncated: !!(toClose.truncated || unsettled.truncated),
    },
  };
}

/**
 * The closing in force of a store and date, with its report, or null when the date is not
 * closed. Asked through the list (an empty page for an open day) rather than the item, whose 404
 * for the ordinary open day would be a failed request in every visit's console.
 */
async function closingInForce(api: Api, contract: Contract, storeId: string, date: string): Promise<Result<Summary | null>> {
  const found = await call(
    api.GET('/{contract_id}/pos/daily_summaries', {
      params: { path: contract, query: { store_id: storeId, 'sum_date-from': date, 'sum_date-to': date, released: '0' } },
    }),
  );
  if (!found.ok) return found;
  if (!found.data.length) return { ok: true, response: found.response, data: null };
  return call(api.GET('/{contract_id}/pos/daily_summaries/{store_id}/{sum_date}', { params: { path: { ...contract, store_id: storeId, sum_date: date } } }));
}
