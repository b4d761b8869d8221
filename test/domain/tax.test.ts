import { describe, expect, it } from 'vitest';
import { dayBefore, japanDate, periodAt, reducedTaxRateAt, standardTaxRateAt, type TaxRates } from '../../server/domain/tax.js';

/** Japan's history as migration 0037 seeds every contract with it. */
const JAPAN: TaxRates = {
  standard: [
    { from: '1989-04-01', rate: '3' },
    { from: '1997-04-01', rate: '5' },
    { from: '2014-04-01', rate: '8' },
    { from: '2019-10-01', rate: '10' },
  ],
  reduced: [{ from: '2019-10-01', until: null, rate: '8' }],
};

const at = (iso: string, rates = JAPAN) => standardTaxRateAt(rates, Date.parse(iso)).toString();
const reduced = (iso: string, rates = JAPAN) => reducedTaxRateAt(rates, Date.parse(iso)).toString();

describe('standardTaxRateAt', () => {
  it('changes at midnight Japan time on each effective date', () => {
    expect(at('2019-09-30T23:59:59+09:00')).toBe('8');
    expect(at('2019-10-01T00:00:00+09:00')).toBe('10');
    expect(at('2019-09-30T15:00:00Z')).toBe('10'); // the same instant in UTC
    expect(at('2014-03-31T23:59:59+09:00')).toBe('5');
    expect(at('2014-04-01T00:00:00+09:00')).toBe('8');
    expect(at('1997-04-01T00:00:00+09:00')).toBe('5');
    expect(at('1989-04-01T00:00:00+09:00')).toBe('3');
    expect(at('1989-03-31T23:59:59+09:00')).toBe('0');
    expect(at('2026-11-22T10:00:00+09:00')).toBe('10');
  });

  it('reads the periods it is given, in any order: a future period applies from its first instant only', () => {
    const planned: TaxRates = { ...JAPAN, standard: [{ from: '2027-04-01', rate: '12.5' }, ...JAPAN.standard] };
    expect(at('2027-03-31T23:59:59.999+09:00', planned)).toBe('10');
    expect(at('2027-04-01T00:00:00+09:00', planned)).toBe('12.5');
    expect(at('2027-04-01T00:00:00+09:00')).toBe('10');
    expect(at('2026-11-22T10:00:00+09:00', { standard: [], reduced: [] })).toBe('0');
  });
});

describe('reducedTaxRateAt', () => {
  it('is 8 from 2019-10-01 Japan time, before that the standard rate', () => {
    expect(reduced('2019-10-01T00:00:00+09:00')).toBe('8');
    expect(reduced('2026-11-22T10:00:00+09:00')).toBe('8');
    expect(reduced('2019-09-30T23:59:59+09:00')).toBe('8'); // the standard 8 % of 2014
    expect(reduced('2014-03-31T23:59:59+09:00')).toBe('5');
    expect(reduced('1989-03-31T23:59:59+09:00')).toBe('0');
  });

  it('a period ended by its last day gives way to the next one, or to the standard rate where none follows', () => {
    const changed: TaxRates = { ...JAPAN, reduced: [{ from: '2019-10-01', until: '2027-03-31', rate: '8' }, { from: '2027-04-01', rate: '0' }] };
    expect(reduced('2027-03-31T23:59:59+09:00', changed)).toBe('8');
    expect(reduced('2027-04-01T00:00:00+09:00', changed)).toBe('0');
    const ended: TaxRates = { ...JAPAN, reduced: [{ from: '2019-10-01', until: '2027-03-31', rate: '8' }] };
    expect(reduced('2027-04-01T00:00:00+09:00', ended)).toBe('10');
  });
});

describe('period helpers', () => {
  it('the day of an instant in Japan, the day before a day, the period in force', () => {
    expect(japanDate(Date.parse('2026-11-22T15:00:00Z'))).toBe('2026-11-23');
    expect(japanDate(Date.parse('2026-11-22T14:59:59Z'))).toBe('2026-11-22');
    expect(dayBefore('2027-03-01')).toBe('2027-02-28');
    expect(dayBefore('2028-03-01')).toBe('2028-02-29');
    expect(dayBefore('2027-01-01')).toBe('2026-12-31');
    expect(periodAt(JAPAN.standard, Date.parse('1988-01-01T00:00:00+09:00'))).toBeUndefined();
  });
});
