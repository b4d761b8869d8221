import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  allocate,
  AllocationError,
  roundAt,
  roundingModeOfCode,
  roundQuotient,
  roundTotal,
  taxRoundingMode,
  type RoundingMode,
} from '../../server/domain/rounding.js';
import type { RoundingCode } from '../../server/domain/transaction-totals-types.js';

const MODES: RoundingMode[] = ['halfUp', 'down', 'up', 'bankers'];
/** The value rounded in each mode, as [halfUp, down, up, bankers]. */
function inModes(value: string, scale: number): string[] {
  return MODES.map((mode) => roundAt(new Decimal(value), scale, mode).toFixed());
}
const shares = (amount: string, weights: string[], adjust: 'last' | 'largestRemainder', scale = 0) =>
  allocate(new Decimal(amount), weights.map((w) => new Decimal(w)), { scale, adjust }).map((d) => d.toFixed());

describe('roundAt', () => {
  it('rounds to whole units in every mode, symmetric around zero', () => {
    //                               halfUp down  up  bankers
    expect(inModes('2.5', 0)).toEqual(['3', '2', '3', '2']); // tie; 2 is even
    expect(inModes('3.5', 0)).toEqual(['4', '3', '4', '4']); // tie; 4 is even
    expect(inModes('2.4', 0)).toEqual(['2', '2', '3', '2']);
    expect(inModes('2.6', 0)).toEqual(['3', '2', '3', '3']);
    expect(inModes('-2.5', 0)).toEqual(['-3', '-2', '-3', '-2']); // magnitude 2.5: half up away from 0, down toward 0
    expect(inModes('-3.5', 0)).toEqual(['-4', '-3', '-4', '-4']);
    expect(inModes('-2.4', 0)).toEqual(['-2', '-2', '-3', '-2']);
    expect(inModes('7', 0)).toEqual(['7', '7', '7', '7']); // exact values stay
    expect(inModes('0.4', 0)).toEqual(['0', '0', '1', '0']);
    expect(inModes('-0.4', 0)).toEqual(['0', '0', '-1', '0']); // never "-0"
  });

  it('rounds to decimals (scale 2)', () => {
    expect(inModes('1.005', 2)).toEqual(['1.01', '1', '1.01', '1']); // tie on 1.00|1.01; 0 even
    expect(inModes('1.015', 2)).toEqual(['1.02', '1.01', '1.02', '1.02']); // tie; 2 even
    expect(inModes('1.0001', 2)).toEqual(['1', '1', '1.01', '1']);
    expect(inModes('-1.005', 2)).toEqual(['-1.01', '-1', '-1.01', '-1']);
    expect(inModes('12.34', 2)).toEqual(['12.34', '12.34', '12.34', '12.34']);
  });

  it('rounds to tens (scale -1) and hundreds (scale -2)', () => {
    expect(inModes('1234', -1)).toEqual(['1230', '1230', '1240', '1230']);
    expect(inModes('1235', -1)).toEqual(['1240', '1230', '1240', '1240']); // tie; 124 even
    expect(inModes('1245', -1)).toEqual(['1250', '1240', '1250', '1240']); // tie; 124 even
    expect(inModes('1230', -1)).toEqual(['1230', '1230', '1230', '1230']);
    expect(inModes('-1235', -1)).toEqual(['-1240', '-1230', '-1240', '-1240']);
    expect(inModes('1250', -2)).toEqual(['1300', '1200', '1300', '1200']); // tie; 12 even
    expect(inModes('1350', -2)).toEqual(['1400', '1300', '1400', '1400']); // tie; 14 even
    expect(inModes('1201', -2)).toEqual(['1200', '1200', '1300', '1200']);
    expect(inModes('-1250', -2)).toEqual(['-1300', '-1200', '-1300', '-1200']);
    expect(inModes('49.99', -2)).toEqual(['0', '0', '100', '0']);
    expect(inModes('50', -2)).toEqual(['100', '0', '100', '0']); // tie; 0 even
  });
});

describe('roundQuotient', () => {
  it('rounds an exact quotient from its remainder', () => {
    expect(roundQuotient(100, 3, 0, 'halfUp').toFixed()).toBe('33'); // 33.33…
    expect(roundQuotient(100, 3, 0, 'up').toFixed()).toBe('34');
    expect(roundQuotient(200, 3, 0, 'halfUp').toFixed()).toBe('67'); // 66.66…
    expect(roundQuotient(200, 3, 0, 'down').toFixed()).toBe('66');
    expect(roundQuotient(11000, 110, 0, 'up').toFixed()).toBe('100'); // 1100 × 10 / 110 = 100 exactly
    expect(roundQuotient(1, 8, 2, 'bankers').toFixed()).toBe('0.12'); // 0.125, 2 even
    expect(roundQuotient(3, 8, 2, 'bankers').toFixed()).toBe('0.38'); // 0.375, 8 even
    expect(roundQuotient(5, -2, 0, 'halfUp').toFixed()).toBe('-3'); // -2.5
    expect(roundQuotient(5, -2, 0, 'bankers').toFixed()).toBe('-2');
    expect(roundQuotient(-7, -2, 0, 'bankers').toFixed()).toBe('4'); // 3.5
    // 10^30 / 3: beyond decimal.js's default 20 digits, still exact.
    expect(roundQuotient('1000000000000000000000000000000', 3, 0, 'up').toFixed()).toBe('333333333333333333333333333334');
    expect(() => roundQuotient(1, 0, 0, 'down')).toThrow(RangeError);
  });
});

describe('rounding codes', () => {
  it('maps taxRounding / discountRoundingDivision codes', () => {
    expect(roundingModeOfCode('0')).toBe('halfUp');
    expect(roundingModeOfCode('1')).toBe('down');
    expect(roundingModeOfCode('2')).toBe('up');
    expect(taxRoundingMode('1')).toBe('down');
    expect(() => roundingModeOfCode('3' as RoundingCode)).toThrow(RangeError);
  });

  it('computes the rounding amount of a total for each roundingDivision', () => {
    const amount = (pre: string, code: string) => roundTotal(new Decimal(pre), code).toFixed();
    expect(amount('1234', '00')).toBe('0');
    expect(amount('1234', '11')).toBe('-4'); // ones half up: 1230 − 1234
    expect(amount('1234', '12')).toBe('-4'); // ones down: 1230 − 1234
    expect(amount('1234', '13')).toBe('6'); // ones up: 1240 − 1234
    expect(amount('1235', '11')).toBe('5'); // 1240 − 1235
    expect(amount('-1235', '11')).toBe('-5'); // -1240 + 1235
    expect(amount('1234', '21')).toBe('-34'); // tens half up: 1200 − 1234
    expect(amount('1250', '21')).toBe('50'); // 1300 − 1250
    expect(amount('1234', '22')).toBe('-34');
    expect(amount('1234', '23')).toBe('66'); // 1300 − 1234
    expect(amount('1234', '31')).toBe('-234'); // 1000 − 1234
    expect(amount('1500', '31')).toBe('500'); // 2000 − 1500
    expect(amount('1234', '33')).toBe('766'); // 2000 − 1234
    expect(amount('1234', '41')).toBe('-1234'); // 0 − 1234
    expect(amount('1234', '43')).toBe('8766'); // 10000 − 1234
    expect(amount('1230.5', '12')).toBe('-0.5'); // 1230 − 1230.5
    for (const bad of ['99', '14', '01', '50', '', '111', '1']) {
      expect(() => roundTotal(new Decimal(1234), bad), bad).toThrow(RangeError);
    }
  });
});

describe('allocate', () => {
  it('rounds shares half to even and puts the difference on the last line', () => {
    expect(shares('100', ['1', '1', '1'], 'last')).toEqual(['33', '33', '34']); // 33.33 each → 99, +1 on the last
    expect(shares('5', ['1', '1'], 'last')).toEqual(['2', '3']); // 2.5 → 2 (even) each → 4, +1 on the last
    expect(shares('7', ['1', '1'], 'last')).toEqual(['4', '3']); // 3.5 → 4 (even) each → 8, −1 on the last
    expect(shares('100', ['1', '1', '1', '0'], 'last')).toEqual(['33', '33', '34', '0']); // the last non-zero weight
    expect(shares('10', ['2', '3', '3', '3'], 'last')).toEqual(['2', '3', '3', '2']); // 1.82→2, 2.73→3 ×3 = 11, −1
    expect(shares('1', ['1', '1', '1'], 'last', 2)).toEqual(['0.33', '0.33', '0.34']); // scale 2: a unit is 0.01
    expect(shares('10.5', ['1', '1'], 'last')).toEqual(['5', '5.5']); // 5.25 → 5 each; the last takes 0.5
    // Scale −1 (tens): 333.3 → 330 each = 990, +10 on the last (largest remainder: on the first).
    expect(shares('1000', ['1', '1', '1'], 'last', -1)).toEqual(['330', '330', '340']);
    expect(shares('1000', ['1', '1', '1'], 'largestRemainder', -1)).toEqual(['340', '330', '330']);
  });

  it('spreads the difference one unit at a time onto the largest rounding errors first', () => {
    // 10 over 2,4,3 (Σ9): 2.222→2, 4.444→4, 3.333→3 = 9; +1 to the largest error (0.444, line 1).
    expect(shares('10', ['2', '4', '3'], 'largestRemainder')).toEqual(['2', '5', '3']);
    // 5 over 3,1,5 (Σ9): 1.667→2, 0.556→1, 2.778→3 = 6; −1 from the line most above its share
    // (errors −0.333, −0.444, −0.222: line 1).
    expect(shares('5', ['3', '1', '5'], 'largestRemainder')).toEqual(['2', '0', '3']);
    // 10 over 2,3,3,3 (Σ11): 2, 3, 3, 3 = 11; errors −0.18, −0.27, −0.27, −0.27: tie, earlier line 1.
    expect(shares('10', ['2', '3', '3', '3'], 'largestRemainder')).toEqual(['2', '2', '3', '3']);
    // 28 over 100 ×3: 9.33 → 9 each = 27; equal errors, the first line takes the unit.
    expect(shares('28', ['100', '100', '100'], 'largestRemainder')).toEqual(['10', '9', '9']);
    // 7 over 1,1: 3.5 → 4 each = 8; equal errors, −1 from the first line.
    expect(shares('7', ['1', '1'], 'largestRemainder')).toEqual(['3', '4']);
    // 10 over seven 1s: 1.43 → 1 each = 7; +3 to the first three (equal errors).
    expect(shares('10', ['1', '1', '1', '1', '1', '1', '1'], 'largestRemainder')).toEqual(['2', '2', '2', '1', '1', '1', '1']);
    // 10.5 over 1,1: 5 and 5; the whole unit goes nowhere (there is none), the 0.5 to the first.
    expect(shares('10.5', ['1', '1'], 'largestRemainder')).toEqual(['5.5', '5']);
  });

  it('takes negative weights (return lines)', () => {
    // 7 over 3, −1 (Σ2): 10.5 → 10 (even), −3.5 → −4 (even) = 6, +1.
    expect(shares('7', ['3', '-1'], 'last')).toEqual(['10', '-3']);
    expect(shares('7', ['3', '-1'], 'largestRemainder')).toEqual(['11', '-4']); // both errors +0.5: the first
    // 100 over 300, −100 (Σ200): 150, −50 exactly.
    expect(shares('100', ['300', '-100'], 'last')).toEqual(['150', '-50']);
    // −99 over −300, −300 (a returned bundle): −49.5 → −50 (even) each = −100, +1 on the last.
    expect(shares('-99', ['-300', '-300'], 'last')).toEqual(['-50', '-49']);
  });

  it('gives zeros for amount 0 and refuses an amount over weights summing to 0', () => {
    expect(shares('0', ['1', '-1'], 'last')).toEqual(['0', '0']);
    expect(shares('0', [], 'largestRemainder')).toEqual([]);
    expect(shares('0', ['5', '7'], 'largestRemainder')).toEqual(['0', '0']);
    expect(() => shares('5', ['1', '-1'], 'last')).toThrow(AllocationError);
    expect(() => shares('5', ['0', '0'], 'largestRemainder')).toThrow(AllocationError);
    expect(() => shares('5', [], 'last')).toThrow('5 cannot be allocated: the weights sum to 0');
  });

  it('always sums to the amount exactly, each share within one unit of its exact value', () => {
    // mulberry32: a tiny seeded PRNG, so the cases are the same on every run.
    let seed = 20261122;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    let refused = 0;
    for (let run = 0; run < 1000; run++) {
      const scale = int(0, 2);
      const amount = new Decimal(int(-100000, 100000)).div(int(0, 1) ? 1 : 1000);
      const weights = Array.from({ length: int(1, 8) }, () => new Decimal(int(-5, 40) * (int(0, 3) ? 1 : 0)).times(int(1, 999)).div(100));
      const total = weights.reduce((s, w) => s.plus(w), new Decimal(0));
      for (const adjust of ['last', 'largestRemainder'] as const) {
        if (total.isZero() && !amount.isZero()) {
          expect(() => allocate(amount, weights, { scale, adjust })).toThrow(AllocationError);
          refused++;
          continue;
        }
        const result = allocate(amount, weights, { scale, adjust });
        expect(result.reduce((s, x) => s.plus(x), new Decimal(0)).eq(amount), `${amount} ${weights.join(',')}`).toBe(true);
        if (amount.isZero()) continue;
        const unit = new Decimal(10).pow(-scale);
        // A whole-unit amount: every share is less than one unit off its exact value; a finer
        // amount (3 decimals at scale 0) leaves a sub-unit rest on one line: 1.5 units.
        const bound = amount.mod(unit).isZero() ? unit : unit.times(1.5);
        const last = weights.findLastIndex((w) => !w.isZero());
        weights.forEach((w, i) => {
          if (w.isZero()) return expect(result[i]!.isZero()).toBe(true);
          const exactShare = amount.times(w).div(total);
          if (adjust === 'largestRemainder') expect(result[i]!.minus(exactShare).abs().lt(bound)).toBe(true);
          else if (i !== last) expect(result[i]!.eq(exactShare.toDecimalPlaces(scale, Decimal.ROUND_HALF_EVEN))).toBe(true);
        });
      }
    }
    expect(refused).toBeGreaterThan(0); // the loop met the zero-sum case too
  });
});
