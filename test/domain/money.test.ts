import { describe, expect, it } from 'vitest';
import { compareDecimal, decimalError, describeDecimal, formatDecimal, fromUnits, parseDecimal, sumDecimals, toUnits } from '../../server/domain/money.js';

const PRICE = { integerDigits: 9, fractionDigits: 3 };
const SIGNED = { integerDigits: 3, fractionDigits: 2, signed: true };
const WHOLE = { integerDigits: 4, fractionDigits: 0 };

describe('money', () => {
  it('accepts plain decimals that fit the digits, counting significant digits only', () => {
    for (const ok of ['0', '1500', '999999999', '999999999.999', '0.001', '150.5', '0150.500', '000000000012', '-0']) {
      expect(decimalError(ok, PRICE), ok).toBeNull();
    }
    expect(decimalError('-12.34', SIGNED)).toBeNull();
    expect(decimalError('9999', WHOLE)).toBeNull();
    expect(decimalError('12.000', WHOLE)).toBeNull();
  });

  it('refuses other notations, too many digits and a sign where none is allowed', () => {
    const message = 'must be a non-negative decimal string of up to 9 integer digits and up to 3 decimals';
    for (const bad of ['', ' 1', '1 ', '+1', '1e3', '.5', '5.', '1,000', '0x10', 'NaN', 'Infinity', '１２', '1000000000', '0.0001', '-1', '-0.001']) {
      expect(decimalError(bad, PRICE), bad).toBe(message);
    }
    expect(decimalError('1.5', WHOLE)).toBe('must be a non-negative decimal string of up to 4 integer digits and no decimals');
    expect(decimalError('-1000', SIGNED)).toBe('must be a signed decimal string of up to 3 integer digits and up to 2 decimals');
    expect(describeDecimal(SIGNED)).toBe('a signed decimal string of up to 3 integer digits and up to 2 decimals');
  });

  it('parses exactly and throws on a value outside the format', () => {
    expect(parseDecimal('0.1', PRICE).plus('0.2').toFixed()).toBe('0.3');
    expect(() => parseDecimal('0.0001', PRICE)).toThrow(RangeError);
  });

  it('compares values, not texts', () => {
    expect(compareDecimal('10', '9.999')).toBe(1);
    expect(compareDecimal('0150.50', '150.5')).toBe(0);
    expect(compareDecimal('-1', '0')).toBe(-1);
  });

  it('formats in plain notation, shortest or to a fixed scale rounding half up, never -0', () => {
    expect(formatDecimal('0150.500')).toBe('150.5');
    expect(formatDecimal('1e21')).toBe('1000000000000000000000');
    expect(formatDecimal('12.3', 5)).toBe('12.30000');
    expect(formatDecimal('2.5', 0)).toBe('3');
    expect(formatDecimal('-2.5', 0)).toBe('-3');
    expect(formatDecimal('-0.0004', 3)).toBe('0.000');
    expect(formatDecimal('-0')).toBe('0');
  });

  it('converts to and from integer units exactly', () => {
    expect(toUnits('150.5', 3)).toBe(150500);
    expect(toUnits('0.1', 5)).toBe(10000);
    expect(toUnits('999999999.999', 3)).toBe(999999999999);
    expect(fromUnits(150500, 3)).toBe('150.5');
    expect(fromUnits(10000, 5)).toBe('0.1');
    expect(fromUnits(0, 3)).toBe('0');
    expect(() => toUnits('0.0001', 3)).toThrow('has more than 3 decimals');
    expect(() => toUnits('99999999999999999', 3)).toThrow('too large');
  });

  it('sums exactly, beyond the range of safe integers', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals([])).toBe('0');
    expect(sumDecimals(['9007199254740993', '1.001'])).toBe('9007199254740994.001');
  });
});
