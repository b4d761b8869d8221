import { call, type Api, type Result } from '../api/client';
import type { components, paths } from '../api/schema';
import { fromUnits, sumUnits, toUnits, type Units } from './money';
import { readAllPages, type AllPages } from './paging';

/**
 * The sales the today and closing screens read: transactions, terminals and settlements of a
 * store, and the figures the closing report defines (server/domain/closing-report.ts).
 */
export type Transaction = components['schemas']['TransactionListItem'];
export type Terminal = components['schemas']['Terminal'];
export type Adjustment = components['schemas']['Adjustment'];

/** Page size of the lists read whole (the API's maximum without lines). */
export const PAGE_SIZE = 1000;
/** A day of more than 50,000 sales is shown as far as read, with a note. */
const MAX_PAGES = 50;

/** Reads a sales list page by page until a short page (Link's next is then absent too). */
export function allSalesPages<T>(page: (n: number) => Promise<Result<T[]>>): Promise<AllPages<T>> {
  return readAllPages(page, { maxPages: MAX_PAGES, isLast: (rows) => rows.length < PAGE_SIZE });
}

export type TransactionQuery = Omit<
  NonNullable<paths['/{contract_id}/pos/transactions']['get']['parameters']['query']>,
  'with_deposit_others' | 'limit' | 'page' | 'sort'
>;

/** Every transaction of a store in a sale-time range (terminalTranDateTime), with its other payments. */
export function transactionsOf(api: Api, contract: { contract_id: string }, query: TransactionQuery): Promise<AllPages<Transaction>> {
  return allSalesPages((n) =>
    call(
      api.GET('/{contract_id}/pos/transactions', {
        params: { path: contract, query: { ...query, with_deposit_others: 'all', limit: String(PAGE_SIZE), page: String(n), sort: 'terminalTranDateTime' } },
      }),
    ),
  );
}

// ---- What the figures count (the definitions of the closing report, server/domain/closing-report.ts) ----

/** A counted sale: a sale (head division 1) not cancelled; return-cancels count with their negative amounts. */
export const isCountedSale = (t: Transaction) => t.transactionHeadDivision === '1' && t.cancelDivision !== '1';
/** Not yet settled at its terminal (sumDivision 0 "unprocessed"). */
export const isUnsettled = (t: Transaction) => t.sumDivision === '0';

/**
 * What a transaction does to the drawer (the closing's cash effect): a sale its cash part plus a
 * cash tip, deposits (2) and custody money (4) their total in, withdrawals (3) and custody
 * refunds (5) their total out; cancelled ones and other divisions move no cash.
 */
export function cashEffect(t: Transaction): Units {
  if (t.cancelDivision === '1') return 0n;
  switch (t.transactionHeadDivision) {
    case '1':
      return toUnits(t.cashTotal) + toUnits(t.tipCash);
    case '2':
    case '4':
      return toUnits(t.total);
    case '3':
    case '5':
      return -toUnits(t.total);
    default:
      return 0n;
  }
}

export interface TerminalFigures {
  terminalId: string;
  sales: number;
  total: string;
  unsettled: number;
  lastSaleAt: string | null;
}

export interface PaymentFigure {
  /** `cash`, `credit`, `tipCash`, `tipCredit` or `method:<paymentMethodId>`. */
  key: string;
  /** The method's name for other payments; null for the fixed rows (the screen labels them). */
  name: string | null;
  amount: string;
}

export interface DayFigures {
  sales: number;
  total: string;
  returns: number;
  byTerminal: TerminalFigures[];
  payments: PaymentFigure[];
  unsettled: Transaction[];
  cashEffects: string;
}

/** A sale with a return: returnSales 1 or returned goods (returnAmount ≠ 0), not a return-cancel. */
const isReturn = (t: Transaction) => t.disposeDivision !== '2' && (t.returnSales === '1' || toUnits(t.returnAmount) !== 0n);

/** The figures of a set of transactions: per terminal, per payment method, and the unsettled ones. */
export function dayFigures(transactions: readonly Transaction[]): DayFigures {
  const counted = transactions.filter(isCountedSale);
  const terminals = new Map<string, { sales: number; total: Units; unsettled: number; lastSaleAt: string | null }>();
  const terminal = (id: string | null | undefined) => {
    const key = id ?? '';
    let entry = terminals.get(key);
    if (!entry) terminals.set(key, (entry = { sales: 0, total: 0n, unsettled: 0, lastSaleAt: null }));
    return entry;
  };
  for (const t of transactions) {
    const entry = terminal(t.terminalId);
    if (isUnsettled(t)) entry.unsettled++;
    if (!isCountedSale(t)) continue;
    entry.sales++;
    entry.total += toUnits(t.total);
    if (t.terminalTranDateTime && (!entry.lastSaleAt || Date.parse(t.terminalTranDateTime) > Date.parse(entry.lastSaleAt))) {
      entry.lastSaleAt = t.terminalTranDateTime;
    }
  }

  const others = new Map<string, { name: string | null; amount: Units }>();
  for (const t of counted) {
    for (const o of t.depositOthers ?? []) {
      // With a unit price the entry is a count of units (vouchers), as the report counts it.
      const units = o.paymentUnitPrice ? toUnits(o.depositOthers) * toUnits(o.paymentUnitPrice) / 10n ** 6n : toUnits(o.depositOthers);
      const id = o.paymentMethodId ?? '';
      const entry = others.get(id) ?? { name: null, amount: 0n };
      entry.amount += units;
      entry.name = o.paymentMethodName || entry.name || o.paymentMethodCode || null;
      others.set(id, entry);
    }
  }
  const sum = (pick: (t: Transaction) => string | null | undefined) => fromUnits(sumUnits(counted.map((t) => toUnits(pick(t)))));
  const payments: PaymentFigure[] = [
    { key: 'cash', name: null, amount: sum((t) => t.cashTotal) },
    { key: 'credit', name: null, amount: sum((t) => t.creditTotal) },
    ...[...others.entries()]
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([id, o]) => ({ key: `method:${id}`, name: o.name ?? id, amount: fromUnits(o.amount) })),
    { key: 'tipCash', name: null, amount: sum((t) => t.tipCash) },
    { key: 'tipCredit', name: null, amount: sum((t) => t.tipCredit) },
  ];

  return {
    sales: counted.length,
    total: sum((t) => t.total),
    returns: counted.filter(isReturn).length,
    byTerminal: [...terminals.entries()]
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([terminalId, e]) => ({ terminalId, sales: e.sales, total: fromUnits(e.total), unsettled: e.unsettled, lastSaleAt: e.lastSaleAt })),
    payments,
    unsettled: transactions.filter(isUnsettled),
    cashEffects: fromUnits(sumUnits(transactions.map(cashEffect))),
  };
}
