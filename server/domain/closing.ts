import { Decimal } from 'decimal.js';
import { toUnits } from './money.js';
import { dayStart, nextDate } from './time.js';

/**
 * Pure rules of the daily closing (spec 4.15) and of terminal settlements (no HTTP, no SQL).
 * Money is decimal.js throughout; the repos store it as INTEGER thousandths.
 */

/** Notes and coins of cashInfo with their face value in yen, in the order of 4.15. */
export const DENOMINATIONS = [
  ['tenThousandYen', 10000],
  ['fiveThousandYen', 5000],
  ['twoThousandYen', 2000],
  ['oneThousandYen', 1000],
  ['fiveHundredYen', 500],
  ['oneHundredYen', 100],
  ['fiftyYen', 50],
  ['tenYen', 10],
  ['fiveYen', 5],
  ['oneYen', 1],
] as const;
export type Denomination = (typeof DENOMINATIONS)[number][0];
export type CashCounts = Record<Denomination, number>;

/** Most notes or coins of one denomination a count may give (6 digits). */
export const MAX_COUNT = 999999;

export const zeroCounts = (): CashCounts =>
  Object.fromEntries(DENOMINATIONS.map(([name]) => [name, 0])) as CashCounts;

/** Real cash balance: Σ count × face value. */
export function cashOfCounts(counts: CashCounts): Decimal {
  return DENOMINATIONS.reduce((sum, [name, face]) => sum.plus(new Decimal(counts[name]).times(face)), new Decimal(0));
}

export function addCounts(a: CashCounts, b: CashCounts): CashCounts {
  return Object.fromEntries(DENOMINATIONS.map(([name]) => [name, a[name] + b[name]])) as CashCounts;
}

/**
 * "Cash effect" of a transaction on the drawer, by transactionHeadDivision (shared contract):
 * a sale moves its cash part (negative for returns and return-cancels), deposits and custody
 * money add their total, withdrawals and custody refunds take it out; other divisions (points,
 * miles, ...) move no cash. A cancelled transaction (cancelDivision 1) moves none.
 */
export const CASH_EFFECTS: Readonly<Record<string, { column: 'cash_total + COALESCE(tip_cash, 0)' | 'total'; sign: 1 | -1 }>> = {
  // A cash tip is paid into the drawer on top of the sale's cash part.
  '1': { column: 'cash_total + COALESCE(tip_cash, 0)', sign: 1 },
  '2': { column: 'total', sign: 1 },
  '3': { column: 'total', sign: -1 },
  '4': { column: 'total', sign: 1 },
  '5': { column: 'total', sign: -1 },
};
export const CANCELLED = '1';

/** The store settings the cash rules read. */
export interface CashSettings {
  /** '1': preparation cash and carry-over reserve are `bankDepositAutoInputAmount` (rule 3). */
  bankDepositAutoInput: '0' | '1';
  bankDepositAutoInputAmount: Decimal;
}

/** cashInfo as sent (closing) or as registered at a settlement; absent values are undefined. */
export interface CashInput {
  preparationCash?: Decimal;
  saving?: Decimal;
  counts: CashCounts;
}

/** A 4.15 refusal: the route answers 400 naming `field`. */
export class ClosingError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ClosingError';
  }
}

/** The store fields the closing checks. */
export interface ClosableStore {
  store_id: number;
  /** The platform's storeDivision: '1' normal store, '2' warehouse. */
  division: string;
  /** '1' an order-receiving store (the platform's order-shipment store). */
  order_receiving: string;
  closing_method: string;
  cash_drawer_division: string;
}

/** Who asks for a closing: the API (4.15), the automatic closing job, the admin screen. */
export type ClosingMethod = 'api' | 'auto' | 'manual';

/**
 * The store-level 400s of 4.15 in the spec's order (after "store absent", which the caller
 * checks): automatic closing (refused to the API only), warehouse, order-receiving store,
 * store with a cash drawer (closed from the admin screen only). A suspended store may be closed.
 */
export function assertClosable(store: ClosableStore, method: ClosingMethod): void {
  const id = store.store_id;
  if (method === 'api' && store.closing_method === '1') {
    throw new ClosingError('storeId', `store ${id} is closed automatically (closingMethod 1) and cannot be closed through the API`);
  }
  if (store.division === '2') throw new ClosingError('storeId', `store ${id} is a warehouse and has no daily closing`);
  if (store.order_receiving === '1') throw new ClosingError('storeId', `store ${id} is an order-receiving store and has no daily closing`);
  if (method !== 'manual' && store.cash_drawer_division === '1') {
    throw new ClosingError('storeId', `store ${id} manages a cash drawer (cashDrawerDivision 1) and must be closed from the admin screen`);
  }
}

/**
 * Rules 2 and 3 on cash values given by a client (a closing's cashInfo, or a settlement's):
 * with bank deposit auto-input on, preparationCash and saving are not taken; with it off both
 * are required. `prefix` is the field path of cashInfo ("cashInfo").
 */
export function assertCashValues(settings: CashSettings, cash: CashInput | null, prefix = 'cashInfo'): void {
  const on = settings.bankDepositAutoInput === '1';
  const check = (key: 'preparationCash' | 'saving') => {
    const present = cash?.[key] !== undefined;
    if (on && present) {
      throw new ClosingError(`${prefix}.${key}`, 'must not be sent: the store\'s bank deposit auto-input is on, so the server sets it');
    }
    if (!on && !present) throw new ClosingError(`${prefix}.${key}`, 'is required: the store\'s bank deposit auto-input is off');
  };
  check('preparationCash');
  check('saving');
}

/** An unclosed settlement linked to the closing (its store, on or before the closing date). */
export interface LinkedSettlement {
  adjustmentId: string;
  terminalId: number;
  adjustedAt: number;
  /** null when the settlement registered no cash data. */
  counts: CashCounts | null;
  /** As registered (null when bank deposit auto-input was on, or no cash data). */
  preparationCash: Decimal | null;
  saving: Decimal | null;
  /** Money taken out of the drawer and banked at that settlement, after its count. */
  depositedBankMoney: Decimal;
  /**
   * A settlement of a released closing of this date or earlier: only its deposit still counts
   * (rule 4; its count does not, rule 5), so it is read as a settlement without cash data.
   */
  released?: boolean;
}

export interface ClosingCashInput {
  settings: CashSettings;
  /** The request's cashInfo; null when not sent. */
  cashInfo: CashInput | null;
  settlements: LinkedSettlement[];
  /** Σ cash effects of the transactions being closed. */
  cashEffects: Decimal;
  /** Terminals that raised the transactions being closed. */
  terminalIds?: number[];
  /**
   * Automatic closing with no cash settlement: nobody counted the cash. The real balance is
   * taken as what should be there (no over/short) and, with auto-input off, the preparation
   * cash is the previous closing's carry-over reserve and nothing is saved.
   */
  uncounted?: { previousCarryOver: Decimal };
}

export type CashSource = 'settlement' | 'request' | 'uncounted';

export interface ClosingCash {
  source: CashSource;
  /** Counted notes and coins (Σ of the terminals' latest settlements); null when uncounted. */
  counts: CashCounts | null;
  preparationCash: Decimal;
  saving: Decimal;
  carryOverReserve: Decimal;
  computedCashBalance: Decimal;
  realCashBalance: Decimal;
  overShort: Decimal;
  depositedBankMoney: Decimal;
  /** The settlements whose counts were used (latest cash settlement of each terminal). */
  countedSettlementIds: string[];
}

const ZERO = new Decimal(0);
const sum = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), ZERO);
const later = (a: LinkedSettlement, b: LinkedSettlement) =>
  a.adjustedAt !== b.adjustedAt ? a.adjustedAt > b.adjustedAt : BigInt(a.adjustmentId) > BigInt(b.adjustmentId);

/** The latest settlement with cash data of each terminal (rule 1), by terminal id. */
export function latestCashSettlements(settlements: LinkedSettlement[]): Map<number, LinkedSettlement> {
  const latest = new Map<number, LinkedSettlement>();
  for (const s of settlements) {
    if (!s.counts) continue;
    const current = latest.get(s.terminalId);
    if (!current || later(s, current)) latest.set(s.terminalId, s);
  }
  return latest;
}

/** Rule 1: cashInfo is refused while an unclosed settlement with cash data is linked. */
export function assertCashInfoAllowed(cashInfo: CashInput | null, settlements: LinkedSettlement[]): void {
  if (!cashInfo) return;
  const latest = latestCashSettlements(settlements);
  if (latest.size === 0) return;
  const ids = [...latest.values()].sort((a, b) => a.terminalId - b.terminalId).map((s) => s.adjustmentId);
  const which = ids.length > 1 ? `settlements ${ids.join(', ')} of the store give` : `settlement ${ids[0]} of the store gives`;
  throw new ClosingError('cashInfo', `must not be sent: the unclosed cash ${which} the cash values of this closing`);
}

/**
 * Rule 1 with counts at settlement needs a current count of every terminal whose transactions
 * are closed: a terminal without a counted settlement (it settled before cash input at
 * settlement was switched on), or whose latest settlement has no count, is a 400 naming
 * cashInfo that says to settle that terminal again with its count (POST /adjustments); the
 * closing's own cashInfo cannot stand in for it (rule 1 refuses it while settlement counts exist).
 */
function assertTerminalsCounted(terminalIds: number[], settlements: LinkedSettlement[], latest: Map<number, LinkedSettlement>): void {
  const uncounted = new Set(terminalIds.filter((id) => !latest.has(id)));
  for (const s of settlements) {
    const counted = latest.get(s.terminalId);
    if (!s.released && !s.counts && counted && later(s, counted)) uncounted.add(s.terminalId);
  }
  if (uncounted.size === 0) return;
  const ids = [...uncounted].sort((a, b) => a - b).join(', ');
  throw new ClosingError(
    'cashInfo',
    `cannot be completed from the settlement counts: terminal ${ids} has no counted settlement after its sales; settle it again with cashInfo (POST /adjustments) before closing`,
  );
}

/**
 * Cash figures of a closing, rules 1-5 of 4.15:
 * 1. when an unclosed settlement with cash data is linked, the counts are the sum of the latest
 *    such settlement of each terminal, and cashInfo must not be sent;
 * 2. auto-input off: preparationCash and saving as given; carry-over = real − saving;
 * 3. auto-input on: preparation cash = carry-over = the auto-input amount; saving = real − carry-over;
 * 4. computed = preparation cash + Σ cash effects; over/short = real − computed + deposited bank
 *    money, where deposited bank money is what was banked before the cash was counted: with
 *    settlement counts, the deposits of a terminal's earlier settlements; with counts given at
 *    closing, the deposits of every linked settlement;
 * 5. after a release the released settlements are no longer linked, so the values come from a
 *    newer unclosed settlement or, without one, from the request.
 */
export function closingCash(input: ClosingCashInput): ClosingCash {
  const { settings, cashInfo, settlements, cashEffects } = input;
  const on = settings.bankDepositAutoInput === '1';
  const latest = latestCashSettlements(settlements);

  if (latest.size > 0) {
    assertCashInfoAllowed(cashInfo, settlements);
    assertTerminalsCounted(input.terminalIds ?? [], settlements, latest);
    const counted = [...latest.values()].sort((a, b) => a.terminalId - b.terminalId);
    const counts = counted.reduce((acc, s) => addCounts(acc, s.counts!), zeroCounts());
    const deposited = sum(
      settlements.filter((s) => latest.has(s.terminalId) && later(latest.get(s.terminalId)!, s)).map((s) => s.depositedBankMoney),
    );
    const fromSettlements = on
      ? undefined
      : { preparationCash: sum(counted.map((s) => s.preparationCash ?? ZERO)), saving: sum(counted.map((s) => s.saving ?? ZERO)) };
    return figures('settlement', counts, fromSettlements, deposited, counted.map((s) => s.adjustmentId));
  }

  const allDeposits = sum(settlements.map((s) => s.depositedBankMoney));
  if (!cashInfo && input.uncounted) {
    const preparationCash = on ? settings.bankDepositAutoInputAmount : input.uncounted.previousCarryOver;
    const computed = preparationCash.plus(cashEffects);
    const real = computed.minus(allDeposits);
    const saving = on ? real.minus(preparationCash) : ZERO;
    return {
      source: 'uncounted',
      counts: null,
      preparationCash,
      saving,
      carryOverReserve: real.minus(saving),
      computedCashBalance: computed,
      realCashBalance: real,
      overShort: ZERO,
      depositedBankMoney: allDeposits,
      countedSettlementIds: [],
    };
  }
  assertCashValues(settings, cashInfo);
  const given = on ? undefined : { preparationCash: cashInfo!.preparationCash!, saving: cashInfo!.saving! };
  return figures('request', cashInfo?.counts ?? zeroCounts(), given, allDeposits, []);

  function figures(
    source: CashSource,
    counts: CashCounts,
    given: { preparationCash: Decimal; saving: Decimal } | undefined,
    deposited: Decimal,
    countedSettlementIds: string[],
  ): ClosingCash {
    const real = cashOfCounts(counts);
    const preparationCash = given ? given.preparationCash : settings.bankDepositAutoInputAmount;
    const carryOverReserve = given ? real.minus(given.saving) : settings.bankDepositAutoInputAmount;
    const saving = given ? given.saving : real.minus(carryOverReserve);
    const computed = preparationCash.plus(cashEffects);
    return {
      source,
      counts,
      preparationCash,
      saving,
      carryOverReserve,
      computedCashBalance: computed,
      realCashBalance: real,
      overShort: real.minus(computed).plus(deposited),
      depositedBankMoney: deposited,
      countedSettlementIds,
    };
  }
}

/**
 * Cash data of a terminal settlement: taken only when the store's cash input at settlement is
 * on, and then required (every settlement counts the drawer, so the closing's rule 1 always has
 * a current count); preparationCash and saving follow rules 2 and 3 as at closing.
 */
export function assertSettlementCash(storeId: number, cashInputAtSettlement: string, settings: CashSettings, cash: CashInput | null): void {
  if (cashInputAtSettlement !== '1') {
    if (cash) throw new ClosingError('cashInfo', 'must not be sent: the store\'s cash input at settlement is off, so cash is counted at closing');
    return;
  }
  if (!cash) throw new ClosingError('cashInfo', `is required: store ${storeId} inputs cash at terminal settlement`);
  assertCashValues(settings, cash);
}

/**
 * A figure as stored (INTEGER thousandths); a sum too large to store is a 400 naming `field`
 * (the request field that made it so), never a crash.
 */
export function storedUnits(value: Decimal, field: string, what: string): number {
  try {
    return toUnits(value, 3);
  } catch (error) {
    if (error instanceof RangeError) throw new ClosingError(field, `gives a ${what} (${value.toFixed()}) too large to store`);
    throw error;
  }
}

// ---- Calendar of the closing (sale dates and closing times in the contract's zone) ----

/** Sales of `date` and earlier, and settlements made up to the end of `date`, are before this instant. */
export const closingCutoff = (date: string, zone: string) => dayStart(nextDate(date), zone);
