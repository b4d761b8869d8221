import { fromUnits, sumUnits, toUnits, yenUnits, type Units } from '../../shared/money';
import type { Adjustment } from '../../shared/sales';
import type { Store } from '../../shared/stores';

/** The notes and coins of cashInfo (spec 4.15) with their face value, in its order. */
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
export type Counts = Record<Denomination, string>;

export const emptyCounts = (): Counts => Object.fromEntries(DENOMINATIONS.map(([name]) => [name, ''])) as Counts;

/** A count as typed: '' is 0; anything but digits is not a count (the server says why when sent). */
export const countOf = (text: string): number | null => (text.trim() === '' ? 0 : /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : null);

/** Σ count × face value, skipping counts that are not numbers. */
export const cashOfCounts = (counts: Counts): Units =>
  sumUnits(DENOMINATIONS.map(([name, face]) => yenUnits(face, countOf(counts[name]) ?? 0)));

export interface CashInputs {
  store: Pick<Store, 'bankDepositAutoInput' | 'bankDepositAutoInputAmount'>;
  /** Settlements of the store that no closing used yet (status unclosed), made up to the end of the date. */
  settlements: readonly Adjustment[];
  /** Σ cash effects of the settled transactions the closing closes. */
  cashEffects: string;
  counts: Counts;
  preparationCash: string;
  saving: string;
}

export interface CashFigures {
  /** settlement: the latest counted settlement of each terminal gives the cash (rule 1); request: the form does. */
  source: 'settlement' | 'request';
  counts: Counts;
  autoInput: boolean;
  preparationCash: string;
  cashEffects: string;
  computed: string;
  real: string;
  deposited: string;
  overShort: string;
  saving: string;
  carryOver: string;
}

const later = (a: Adjustment, b: Adjustment) => {
  const ta = Date.parse(a.adjustmentDateTime);
  const tb = Date.parse(b.adjustmentDateTime);
  return ta !== tb ? ta > tb : BigInt(a.adjustmentId) > BigInt(b.adjustmentId);
};

/**
 * The cash figures of a closing as the server computes them (4.15 rules 1–4, server/domain/closing.ts):
 * expected = preparation cash + cash effects; over/short = counted − expected + money banked
 * at settlements before the count. With settlement counts: counts, preparation cash and
 * saving are the sums of each terminal's latest counted settlement, and only deposits of a
 * terminal's earlier settlements count; otherwise the form's values and every deposit.
 * Bank deposit auto-input on: preparation cash = carry-over = the auto-input amount,
 * saving = counted − carry-over. The server's own figures are shown in the report after closing.
 */
export function cashFigures(input: CashInputs): CashFigures {
  const autoInput = input.store.bankDepositAutoInput === '1';
  const autoAmount = toUnits(input.store.bankDepositAutoInputAmount);
  const latest = new Map<string, Adjustment>();
  for (const s of input.settlements) {
    if (!s.cashInfo) continue;
    const seen = latest.get(s.terminalId);
    if (!seen || later(s, seen)) latest.set(s.terminalId, s);
  }
  const fromSettlements = latest.size > 0;
  const counted = [...latest.values()];
  const counts: Counts = fromSettlements
    ? (Object.fromEntries(
        DENOMINATIONS.map(([name]) => [name, String(counted.reduce((n, s) => n + Number(s.cashInfo?.[name] ?? 0), 0))]),
      ) as Counts)
    : input.counts;
  const deposited = fromSettlements
    ? sumUnits(input.settlements.filter((s) => latest.has(s.terminalId) && later(latest.get(s.terminalId)!, s)).map((s) => toUnits(s.depositedBankMoney)))
    : sumUnits(input.settlements.map((s) => toUnits(s.depositedBankMoney)));
  const real = cashOfCounts(counts);
  const given = (pick: (s: Adjustment) => string | null | undefined, typed: string) =>
    fromSettlements ? sumUnits(counted.map((s) => toUnits(pick(s)))) : toUnits(typed);
  const preparationCash = autoInput ? autoAmount : given((s) => s.cashInfo?.preparationCash, input.preparationCash);
  const saving = autoInput ? real - autoAmount : given((s) => s.cashInfo?.saving, input.saving);
  const cashEffects = toUnits(input.cashEffects);
  const computed = preparationCash + cashEffects;
  return {
    source: fromSettlements ? 'settlement' : 'request',
    counts,
    autoInput,
    preparationCash: fromUnits(preparationCash),
    cashEffects: fromUnits(cashEffects),
    computed: fromUnits(computed),
    real: fromUnits(real),
    deposited: fromUnits(deposited),
    overShort: fromUnits(real - computed + deposited),
    saving: fromUnits(saving),
    carryOver: fromUnits(autoInput ? autoAmount : real - saving),
  };
}

/** The body's cashInfo: every count (blank as "0"), plus preparation cash and saving unless the server sets them (auto-input). */
export function cashInfoBody(counts: Counts, autoInput: boolean, preparationCash: string, saving: string) {
  const body: Record<string, string> = Object.fromEntries(DENOMINATIONS.map(([name]) => [name, counts[name].trim() || '0']));
  // Left blank, they are left out: the server then says they are required, next to each field.
  if (!autoInput && preparationCash.trim()) body.preparationCash = preparationCash.trim();
  if (!autoInput && saving.trim()) body.saving = saving.trim();
  return body as Counts & { preparationCash?: string; saving?: string };
}
