import { describe, expect, it } from 'vitest';
import { reducedTaxRateAt, standardTaxRateAt } from '../../server/domain/tax.js';

const at = (iso: string) => standardTaxRateAt(Date.parse(iso)).toString();

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
});

describe('reducedTaxRateAt', () => {
  const reduced = (iso: string) => reducedTaxRateAt(Date.parse(iso)).toString();
  it('is 8 from 2019-10-01 Japan time, before that the standard rate', () => {
    expect(reduced('2019-10-01T00:00:00+09:00')).toBe('8');
    expect(reduced('2026-11-22T10:00:00+09:00')).toBe('8');
    expect(reduced('2019-09-30T23:59:59+09:00')).toBe('8'); // the standard 8 % of 2014
    expect(reduced('2014-03-31T23:59:59+09:00')).toBe('5');
    expect(reduced('1989-03-31T23:59:59+09:00')).toBe('0');
  });
});
