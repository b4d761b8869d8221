import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  assertCashInfoAllowed,
  assertClosable,
  assertSettlementCash,
  cashOfCounts,
  closingCash,
  closingCutoff,
  ClosingError,
  latestCashSettlements,
  storedUnits,
  zeroCounts,
  type CashCounts,
  type CashSettings,
  type ClosingCash,
  type LinkedSettlement,
} from '../../server/domain/closing.js';
import { dayStart, nextDate, shiftDate } from '../../server/domain/time.js';
import { autoClosingDate, autoClosingDates, closingTimeReached } from '../../server/domain/auto-closing-calendar.js';

const d = (v: Decimal.Value) => new Decimal(v);
const OFF: CashSettings = { bankDepositAutoInput: '0', bankDepositAutoInputAmount: d(0) };
const ON: CashSettings = { bankDepositAutoInput: '1', bankDepositAutoInputAmount: d(20000) };
const counts = (c: Partial<CashCounts>): CashCounts => ({ ...zeroCounts(), ...c });

/** The figures as plain strings, to compare with hand-computed values. */
const plain = (c: ClosingCash) => ({
  source: c.source,
  preparationCash: c.preparationCash.toFixed(),
  saving: c.saving.toFixed(),
  carryOverReserve: c.carryOverReserve.toFixed(),
  computedCashBalance: c.computedCashBalance.toFixed(),
  realCashBalance: c.realCashBalance.toFixed(),
  overShort: c.overShort.toFixed(),
  depositedBankMoney: c.depositedBankMoney.toFixed(),
});

const settlement = (s: Partial<LinkedSettlement> & Pick<LinkedSettlement, 'adjustmentId' | 'terminalId' | 'adjustedAt'>): LinkedSettlement => ({
  counts: null,
  preparationCash: null,
  saving: null,
  depositedBankMoney: d(0),
  ...s,
});

const refusal = (fn: () => unknown): { field: string; message: string } => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ClosingError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error('expected a ClosingError');
};

describe('closing cash rules (4.15)', () => {
  it('counts notes and coins: Σ count × face value', () => {
    // 3×10000 + 5000 + 4×1000 + 2×500 + 7×100 + 5×10 + 3×1 = 40753
    const c = counts({ tenThousandYen: 3, fiveThousandYen: 1, oneThousandYen: 4, fiveHundredYen: 2, oneHundredYen: 7, tenYen: 5, oneYen: 3 });
    expect(cashOfCounts(c).toFixed()).toBe('40753');
    expect(cashOfCounts(counts({ twoThousandYen: 1, fiftyYen: 1, fiveYen: 1 })).toFixed()).toBe('2055');
    expect(cashOfCounts(zeroCounts()).toFixed()).toBe('0');
  });

  it('rule 2 (auto-input off): preparation cash and saving as sent, carry-over = real − saving, over/short = real − computed', () => {
    const cashInfo = {
      preparationCash: d(30000),
      saving: d(10000),
      counts: counts({ tenThousandYen: 3, fiveThousandYen: 1, oneThousandYen: 4, fiveHundredYen: 2, oneHundredYen: 7, tenYen: 5, oneYen: 3 }),
    };
    const cash = closingCash({ settings: OFF, cashInfo, settlements: [], cashEffects: d(12000) });
    // computed = 30000 + 12000 = 42000; real = 40753; carry-over = 40753 − 10000; over/short = 40753 − 42000
    expect(plain(cash)).toEqual({
      source: 'request',
      preparationCash: '30000',
      saving: '10000',
      carryOverReserve: '30753',
      computedCashBalance: '42000',
      realCashBalance: '40753',
      overShort: '-1247',
      depositedBankMoney: '0',
    });
    expect(cash.counts).toEqual(cashInfo.counts);
  });

  it('rule 2 keeps decimals exact', () => {
    const cash = closingCash({
      settings: OFF,
      cashInfo: { preparationCash: d('0.1'), saving: d('0.2'), counts: counts({ oneYen: 1 }) },
      settlements: [],
      cashEffects: d('0.2'),
    });
    expect(plain(cash)).toMatchObject({ computedCashBalance: '0.3', carryOverReserve: '0.8', overShort: '0.7' });
  });

  it('rule 3 (auto-input on): preparation cash = carry-over = the amount, saving = real − carry-over', () => {
    const cash = closingCash({ settings: ON, cashInfo: { counts: counts({ tenThousandYen: 5 }) }, settlements: [], cashEffects: d(31000) });
    // computed = 20000 + 31000 = 51000; real 50000; saving 50000 − 20000; over/short 50000 − 51000
    expect(plain(cash)).toEqual({
      source: 'request',
      preparationCash: '20000',
      saving: '30000',
      carryOverReserve: '20000',
      computedCashBalance: '51000',
      realCashBalance: '50000',
      overShort: '-1000',
      depositedBankMoney: '0',
    });
  });

  it('rules 2 and 3: preparationCash and saving present or absent against the setting, preparation cash first', () => {
    const c = counts({ tenThousandYen: 1 });
    const on = (cashInfo: Parameters<typeof closingCash>[0]['cashInfo']) =>
      refusal(() => closingCash({ settings: ON, cashInfo, settlements: [], cashEffects: d(0) }));
    const off = (cashInfo: Parameters<typeof closingCash>[0]['cashInfo']) =>
      refusal(() => closingCash({ settings: OFF, cashInfo, settlements: [], cashEffects: d(0) }));
    const notTaken = 'must not be sent: the store\'s bank deposit auto-input is on, so the server sets it';
    const required = 'is required: the store\'s bank deposit auto-input is off';
    expect(on({ preparationCash: d(1), saving: d(1), counts: c })).toEqual({ field: 'cashInfo.preparationCash', message: notTaken });
    expect(on({ saving: d(0), counts: c })).toEqual({ field: 'cashInfo.saving', message: notTaken });
    expect(off({ saving: d(0), counts: c })).toEqual({ field: 'cashInfo.preparationCash', message: required });
    expect(off(null)).toEqual({ field: 'cashInfo.preparationCash', message: required });
    expect(off({ preparationCash: d(0), counts: c })).toEqual({ field: 'cashInfo.saving', message: required });
    // auto-input on without cashInfo: nothing counted, the figures still follow rule 3
    expect(plain(closingCash({ settings: ON, cashInfo: null, settlements: [], cashEffects: d(500) }))).toMatchObject({
      realCashBalance: '0',
      saving: '-20000',
      overShort: '-20500',
    });
  });

  describe('rule 1 and 4: cash from settlements', () => {
    // terminal 1 settled twice (the first time banking 30000), terminal 2 once
    const t1First = settlement({
      adjustmentId: '1',
      terminalId: 1,
      adjustedAt: 100,
      counts: counts({ tenThousandYen: 4 }),
      preparationCash: d(10000),
      saving: d(0),
      depositedBankMoney: d(30000),
    });
    const t1Last = settlement({
      adjustmentId: '2',
      terminalId: 1,
      adjustedAt: 200,
      counts: counts({ tenThousandYen: 1, oneThousandYen: 5 }),
      preparationCash: d(10000),
      saving: d(5000),
    });
    const t2 = settlement({
      adjustmentId: '3',
      terminalId: 2,
      adjustedAt: 150,
      counts: counts({ fiveThousandYen: 2 }),
      preparationCash: d(5000),
      saving: d(0),
      depositedBankMoney: d(2000),
    });

    it('sums the latest settlement of each terminal; deposited bank money is what earlier settlements banked', () => {
      const cash = closingCash({ settings: OFF, cashInfo: null, settlements: [t1Last, t2, t1First], cashEffects: d(39000) });
      // real = 15000 + 10000; preparation = 10000 + 5000; saving = 5000 + 0; carry-over = 25000 − 5000;
      // computed = 15000 + 39000 = 54000; deposited = 30000 (t1's first; t2's own deposit follows its count);
      // over/short = 25000 − 54000 + 30000 = 1000
      expect(plain(cash)).toEqual({
        source: 'settlement',
        preparationCash: '15000',
        saving: '5000',
        carryOverReserve: '20000',
        computedCashBalance: '54000',
        realCashBalance: '25000',
        overShort: '1000',
        depositedBankMoney: '30000',
      });
      expect(cash.counts).toEqual(counts({ tenThousandYen: 1, fiveThousandYen: 2, oneThousandYen: 5 }));
      expect(cash.countedSettlementIds).toEqual(['2', '3']);
    });

    it('with auto-input on the setting gives preparation cash and carry-over', () => {
      const cash = closingCash({ settings: ON, cashInfo: null, settlements: [t1First, t1Last, t2], cashEffects: d(39000) });
      // computed = 20000 + 39000; saving = 25000 − 20000; over/short = 25000 − 59000 + 30000
      expect(plain(cash)).toMatchObject({
        preparationCash: '20000',
        carryOverReserve: '20000',
        saving: '5000',
        computedCashBalance: '59000',
        overShort: '-4000',
      });
    });

    it('refuses cashInfo while an unclosed cash settlement is linked, naming the settlements', () => {
      const cashInfo = { preparationCash: d(0), saving: d(0), counts: zeroCounts() };
      expect(refusal(() => closingCash({ settings: OFF, cashInfo, settlements: [t1First, t1Last, t2], cashEffects: d(0) }))).toEqual({
        field: 'cashInfo',
        message: 'must not be sent: the unclosed cash settlements 2, 3 of the store give the cash values of this closing',
      });
      expect(refusal(() => assertCashInfoAllowed(cashInfo, [t2]))).toEqual({
        field: 'cashInfo',
        message: 'must not be sent: the unclosed cash settlement 3 of the store gives the cash values of this closing',
      });
      expect(() => assertCashInfoAllowed(null, [t2])).not.toThrow();
      expect(() => assertCashInfoAllowed(cashInfo, [settlement({ adjustmentId: '9', terminalId: 1, adjustedAt: 1 })])).not.toThrow();
    });

    it('orders settlements by time, then by id as a number', () => {
      const a = settlement({ adjustmentId: '9001', terminalId: 1, adjustedAt: 500, counts: counts({ oneYen: 9 }) });
      const b = settlement({ adjustmentId: '10001', terminalId: 1, adjustedAt: 500, counts: counts({ oneYen: 10 }) });
      expect(latestCashSettlements([b, a]).get(1)?.adjustmentId).toBe('10001');
      expect(latestCashSettlements([a, b]).get(1)?.adjustmentId).toBe('10001');
    });
  });

  it('rule 4 with counts at closing: every linked settlement banked before the count', () => {
    const settlements = [
      settlement({ adjustmentId: '1', terminalId: 1, adjustedAt: 1, depositedBankMoney: d(5000) }),
      settlement({ adjustmentId: '2', terminalId: 2, adjustedAt: 2, depositedBankMoney: d('1500.5') }),
    ];
    const cash = closingCash({
      settings: OFF,
      cashInfo: { preparationCash: d(10000), saving: d(0), counts: counts({ tenThousandYen: 1, oneThousandYen: 3 }) },
      settlements,
      cashEffects: d(9000),
    });
    // computed 19000, real 13000, deposited 6500.5 → over/short 13000 − 19000 + 6500.5
    expect(plain(cash)).toMatchObject({ source: 'request', depositedBankMoney: '6500.5', overShort: '500.5', carryOverReserve: '13000' });
  });

  describe('automatic closing without a count', () => {
    const deposits = [settlement({ adjustmentId: '1', terminalId: 1, adjustedAt: 1, depositedBankMoney: d(1000) })];

    it('auto-input on: the amount is preparation cash and carry-over; real = what should be there', () => {
      const cash = closingCash({ settings: ON, cashInfo: null, settlements: deposits, cashEffects: d(31000), uncounted: { previousCarryOver: d(7) } });
      // computed 51000, real 51000 − 1000, saving 50000 − 20000, over/short 0
      expect(plain(cash)).toEqual({
        source: 'uncounted',
        preparationCash: '20000',
        saving: '30000',
        carryOverReserve: '20000',
        computedCashBalance: '51000',
        realCashBalance: '50000',
        overShort: '0',
        depositedBankMoney: '1000',
      });
      expect(cash.counts).toBeNull();
    });

    it('auto-input off: the previous carry-over is the preparation cash, nothing is saved', () => {
      const cash = closingCash({ settings: OFF, cashInfo: null, settlements: deposits, cashEffects: d(31000), uncounted: { previousCarryOver: d(8000) } });
      expect(plain(cash)).toMatchObject({ preparationCash: '8000', saving: '0', computedCashBalance: '39000', realCashBalance: '38000', carryOverReserve: '38000', overShort: '0' });
    });

    it('a cash settlement still gives the values (rule 1)', () => {
      const counted = settlement({ adjustmentId: '2', terminalId: 1, adjustedAt: 2, counts: counts({ tenThousandYen: 2 }), preparationCash: d(1000), saving: d(0) });
      const cash = closingCash({ settings: OFF, cashInfo: null, settlements: [counted], cashEffects: d(18000), uncounted: { previousCarryOver: d(0) } });
      expect(plain(cash)).toMatchObject({ source: 'settlement', realCashBalance: '20000', computedCashBalance: '19000', overShort: '1000' });
    });
  });

  it('store checks in the spec\'s order; the admin screen may close a store with a cash drawer', () => {
    const store = { store_id: 7, division: '1', order_receiving: '0', closing_method: '0', cash_drawer_division: '0' };
    expect(() => assertClosable(store, 'api')).not.toThrow();
    expect(refusal(() => assertClosable({ ...store, closing_method: '1', division: '2' }, 'api'))).toEqual({
      field: 'storeId',
      message: 'store 7 is closed automatically (closingMethod 1) and cannot be closed through the API',
    });
    expect(() => assertClosable({ ...store, closing_method: '1' }, 'auto')).not.toThrow();
    expect(refusal(() => assertClosable({ ...store, division: '2', cash_drawer_division: '1' }, 'api')).message).toBe(
      'store 7 is a warehouse and has no daily closing',
    );
    expect(refusal(() => assertClosable({ ...store, order_receiving: '1' }, 'auto')).message).toBe('store 7 is an order-receiving store and has no daily closing');
    expect(refusal(() => assertClosable({ ...store, cash_drawer_division: '1' }, 'auto')).message).toBe(
      'store 7 manages a cash drawer (cashDrawerDivision 1) and must be closed from the admin screen',
    );
    expect(() => assertClosable({ ...store, cash_drawer_division: '1' }, 'manual')).not.toThrow();
  });

  it('settlement cash only with cash input at settlement on, then with rules 2 and 3', () => {
    const cash = { counts: zeroCounts() };
    expect(() => assertSettlementCash(7, '0', OFF, null)).not.toThrow();
    expect(refusal(() => assertSettlementCash(7, '1', OFF, null))).toEqual({ field: 'cashInfo', message: 'is required: store 7 inputs cash at terminal settlement' });
    expect(refusal(() => assertSettlementCash(7, '0', OFF, cash))).toEqual({
      field: 'cashInfo',
      message: 'must not be sent: the store\'s cash input at settlement is off, so cash is counted at closing',
    });
    expect(refusal(() => assertSettlementCash(7, '1', OFF, cash)).field).toBe('cashInfo.preparationCash');
    expect(() => assertSettlementCash(7, '1', ON, cash)).not.toThrow();
    expect(refusal(() => assertSettlementCash(7, '1', ON, { ...cash, saving: d(1) })).field).toBe('cashInfo.saving');
  });

  it('calendar: day starts in the zone, across DST and month ends', () => {
    expect(dayStart('2026-11-22', 'Asia/Tokyo')).toBe(Date.UTC(2026, 10, 21, 15));
    expect(closingCutoff('2026-11-22', 'Asia/Tokyo')).toBe(Date.UTC(2026, 10, 22, 15));
    expect(dayStart('2026-03-08', 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 5)); // EST, the day DST starts
    expect(dayStart('2026-03-09', 'America/New_York')).toBe(Date.UTC(2026, 2, 9, 4)); // EDT
    expect(dayStart('2026-06-01', 'UTC')).toBe(Date.UTC(2026, 5, 1));
    expect(nextDate('2026-12-31')).toBe('2027-01-01');
    expect(nextDate('2028-02-28')).toBe('2028-02-29');
    expect(nextDate('2027-02-28')).toBe('2027-03-01');
    const at = Date.UTC(2026, 10, 22, 13, 30); // 22:30 in Tokyo
    expect(closingTimeReached(at, 'Asia/Tokyo', '22:30')).toBe(true);
    expect(closingTimeReached(at, 'Asia/Tokyo', '22:31')).toBe(false);
    expect(closingTimeReached(at, 'Asia/Tokyo', '00:00')).toBe(true);
  });

  it('a figure too large to store is a refusal naming the field, never a crash', () => {
    expect(storedUnits(d('9999999999.999'), 'cashInfo', 'real cash balance')).toBe(9999999999999);
    expect(refusal(() => storedUnits(d('1e16'), 'cashInfo', 'real cash balance'))).toEqual({
      field: 'cashInfo',
      message: 'gives a real cash balance (10000000000000000) too large to store',
    });
  });

  it('rule 1 needs a current count of every terminal whose sales are closed', () => {
    const counted = settlement({ adjustmentId: '2', terminalId: 1, adjustedAt: 20, counts: counts({ oneThousandYen: 1 }) });
    const input = { settings: ON, cashInfo: null, cashEffects: d(1000) };
    const why = 'cannot be completed from the settlement counts: terminal 2 has no counted settlement after its sales; settle it again with cashInfo (POST /adjustments) before closing';
    expect(refusal(() => closingCash({ ...input, settlements: [counted], terminalIds: [1, 2] }))).toEqual({ field: 'cashInfo', message: why });
    // a count-less settlement after the terminal's count makes that count stale
    const stale = settlement({ adjustmentId: '3', terminalId: 2, adjustedAt: 30 });
    const counted2 = settlement({ adjustmentId: '1', terminalId: 2, adjustedAt: 10, counts: counts({}) });
    expect(refusal(() => closingCash({ ...input, settlements: [counted2, counted, stale], terminalIds: [1] }))).toEqual({ field: 'cashInfo', message: why });
    expect(closingCash({ ...input, settlements: [counted], terminalIds: [1] }).source).toBe('settlement');
  });

  it('a released settlement gives its deposit only (rules 4 and 5)', () => {
    const released = settlement({ adjustmentId: '1', terminalId: 1, adjustedAt: 10, depositedBankMoney: d(4000), released: true });
    const cash = closingCash({ settings: OFF, cashInfo: { preparationCash: d(0), saving: d(0), counts: counts({ oneThousandYen: 1 }) }, settlements: [released], cashEffects: d(5000) });
    expect(plain(cash)).toMatchObject({ source: 'request', depositedBankMoney: '4000', overShort: '0' });
  });

  it('automatic closing: target date by closing time, and the missed dates to catch up', () => {
    const tokyo = (date: string, time: string) => Date.parse(`${date}T${time}+09:00`);
    expect(autoClosingDate(tokyo('2026-11-23', '00:00:00'), 'Asia/Tokyo', '00:00')).toBe('2026-11-22');
    expect(autoClosingDate(tokyo('2026-11-23', '23:59:00'), 'Asia/Tokyo', '05:59')).toBe('2026-11-22');
    expect(autoClosingDate(tokyo('2026-11-23', '05:58:00'), 'Asia/Tokyo', '05:59')).toBeNull();
    expect(autoClosingDate(tokyo('2026-11-23', '06:00:00'), 'Asia/Tokyo', '06:00')).toBe('2026-11-23');
    expect(autoClosingDate(tokyo('2026-11-23', '21:59:00'), 'Asia/Tokyo', '22:00')).toBeNull();
    expect(autoClosingDates('2026-11-22', null)).toEqual(['2026-11-22']);
    expect(autoClosingDates('2026-11-22', '2026-11-22')).toEqual([]);
    expect(autoClosingDates('2026-11-22', '2026-11-23')).toEqual([]);
    expect(autoClosingDates('2026-03-01', '2026-02-27')).toEqual(['2026-02-28', '2026-03-01']);
    expect(autoClosingDates('2026-11-22', '2026-01-01')).toEqual(Array.from({ length: 8 }, (_, i) => shiftDate('2026-11-15', i)));
    expect(shiftDate('2026-01-01', -1)).toBe('2025-12-31');
  });
});
