import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../server/domain/errors.js';
import { assertNotTakenBelowZero, pointsDueToExpire } from '../../server/domain/points.js';

const d = (v: string) => new Decimal(v);
const fields = { point: 'point', mile: 'mile' };

describe("a member's balances (domain/points.ts)", () => {
  it('refuses a movement that takes a balance below zero, naming the field; adding is always allowed', () => {
    const refusal = (balance: { point: string; mile: string }, delta: { point: Decimal; mile: Decimal }, f = fields) => {
      try {
        assertNotTakenBelowZero(7, balance, delta, f);
        return undefined;
      } catch (error) {
        if (!(error instanceof InvalidInput)) throw error;
        return error.message;
      }
    };
    expect(refusal({ point: '10', mile: '0' }, { point: d('-11'), mile: d('0') })).toBe('[point] member 7 has 10 points; a change of -11 would leave -1, below zero');
    expect(refusal({ point: '10', mile: '2.5' }, { point: d('-10'), mile: d('-3') }, { point: 'pointUpdateDivision', mile: 'pointUpdateDivision' })).toBe(
      '[pointUpdateDivision] member 7 has 2.5 miles; a change of -3 would leave -0.5, below zero',
    );
    // The points are checked before the miles.
    expect(refusal({ point: '0', mile: '0' }, { point: d('-1'), mile: d('-1') })).toMatch(/^\[point\]/);
    expect(refusal({ point: '-5', mile: '0' }, { point: d('1'), mile: d('0') })).toBeUndefined();
    expect(refusal({ point: '10', mile: '0' }, { point: d('-10'), mile: d('0') })).toBeUndefined();
  });

  it('lets points expire only after their last day, and only points a member holds', () => {
    expect(pointsDueToExpire('12.5', '2026-11-21', '2026-11-22')?.toString()).toBe('12.5');
    expect(pointsDueToExpire('12.5', '2026-11-22', '2026-11-22')).toBeNull();
    expect(pointsDueToExpire('12.5', null, '2026-11-22')).toBeNull();
    expect(pointsDueToExpire('0', '2026-11-21', '2026-11-22')).toBeNull();
    expect(pointsDueToExpire('-3', '2026-11-21', '2026-11-22')).toBeNull();
  });
});
