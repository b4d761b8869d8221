import { Decimal } from 'decimal.js';
import { InvalidInput } from './errors.js';
import { formatDecimal } from './money.js';
import { add, exact, mul, roundQuotient, sub, ZERO } from './rounding.js';
import { TotalsError, type HeaderTotals, type TotalsInput } from './transaction-totals-types.js';

/** What a goods line contributes to the point base (issue 4, "Points and miles"). */
export interface PointLine {
  pointNotApplicable: '0' | '1';
  taxBase: Decimal;
  taxIncludeProportional: Decimal;
  taxExcludeProportional: Decimal;
  discountPointProportional: Decimal;
}

export type MemberTotals = Pick<
  HeaderTotals,
  'newPoint' | 'point' | 'totalPoint' | 'currentMile' | 'earnMile' | 'adjustmentMile' | 'totalMile'
>;

/**
 * Σ over point-applicable goods lines of taxBase, made tax included (divisions 1, 3: + the
 * tax-excluded tax) or tax excluded (2, 4: − the tax-included tax), and with the used points
 * included (1, 2) or excluded (3, 4). taxBase already lacks the points when they are a discount
 * (pointSpendDivision 2) and still holds them when they are cash (1).
 */
export function pointBase(
  lines: readonly PointLine[],
  pointGivingDivision: TotalsInput['pointGivingDivision'],
  pointSpendDivision: TotalsInput['pointSpendDivision'],
): Decimal {
  const taxIncluded = pointGivingDivision === '1' || pointGivingDivision === '3';
  const pointsIncluded = pointGivingDivision === '1' || pointGivingDivision === '2';
  const addPoints = pointsIncluded && pointSpendDivision === '2';
  const subtractPoints = !pointsIncluded && pointSpendDivision === '1';
  let base = ZERO;
  for (const l of lines) {
    if (l.pointNotApplicable !== '0') continue;
    base = add(base, l.taxBase);
    base = taxIncluded ? add(base, l.taxExcludeProportional) : sub(base, l.taxIncludeProportional);
    if (addPoints) base = add(base, l.discountPointProportional);
    else if (subtractPoints) base = sub(base, l.discountPointProportional);
  }
  return base;
}

/**
 * Points and miles of the sale. Non-member sale: no points granted and miles null. The grant,
 * base × pointGivingUnit / pointGivingUnitPrice rounded toward zero (a return takes points
 * back), is newPoint, or earnMile when mileageDivision is 2 (miles instead of points).
 */
export function memberTotals(input: TotalsInput, base: Decimal): MemberTotals {
  const member = input.member;
  const spend = exact(input.spendPoint);
  if (!member) {
    return { newPoint: ZERO, point: ZERO, totalPoint: sub(ZERO, spend), ...noMiles() };
  }
  if (input.pointGivingUnitPrice.isZero()) throw new TotalsError('pointGivingUnitPrice', 'must not be 0');
  const grant = roundQuotient(mul(base, input.pointGivingUnit), input.pointGivingUnitPrice, 0, 'down');
  const miles = input.mileageDivision !== '0';
  const newPoint = input.mileageDivision === '2' ? ZERO : grant;
  const point = exact(member.point);
  const totals = { newPoint, point, totalPoint: sub(add(point, newPoint), spend) };
  if (!miles) return { ...totals, ...noMiles() };

  let earnMile = input.mileageDivision === '2' ? grant : ZERO;
  let adjustmentMile = ZERO;
  const division = input.adjustmentMileDivision;
  if (division !== null && division !== '1' && input.adjustmentMileValue === null) {
    throw new TotalsError('adjustmentMileValue', `is required when adjustmentMileDivision is ${division}`);
  }
  const value = input.adjustmentMileValue === null ? ZERO : exact(input.adjustmentMileValue);
  if (division === '1') earnMile = ZERO;
  else if (division === '2') earnMile = value;
  else if (division === '3') adjustmentMile = value;
  else if (division === '4') earnMile = roundQuotient(mul(earnMile, value), 1, 0, 'down');
  const currentMile = exact(member.mile);
  return { ...totals, currentMile, earnMile, adjustmentMile, totalMile: add(add(currentMile, earnMile), adjustmentMile) };
}

function noMiles(): Pick<MemberTotals, 'currentMile' | 'earnMile' | 'adjustmentMile' | 'totalMile'> {
  return { currentMile: null, earnMile: null, adjustmentMile: null, totalMile: null };
}

// --- changing the member of a registered sale (PATCH /transactions/{id}/customer) ---------------

/**
 * pointUpdateDivision of the platform's transaction member update: 0 (default) no point
 * movement; 1 the points the sale actually moved are moved from the member it had to the new
 * one; 2 the points are computed anew for the new member by the sale's point rules (the old
 * member loses what the sale gave them).
 */
export type PointUpdateDivision = '0' | '1' | '2';

/** The net points and miles a sale moves for its member: newPoint − spendPoint, earnMile + adjustmentMile. */
export interface SalePoints {
  point: Decimal;
  mile: Decimal;
}

/** The member fields of a registered sale, as exact values (null where the sale has none). */
export interface SaleMemberFields {
  newPoint: Decimal | null;
  spendPoint: Decimal | null;
  currentMile: Decimal | null;
  earnMile: Decimal | null;
  adjustmentMile: Decimal | null;
}

export interface MemberChange {
  /** Moved on the member the sale had (the negation of what it gave them), or null. */
  fromOld: SalePoints | null;
  /** Moved on the new member, or null. */
  toNew: SalePoints | null;
  /** The sale's member totals that change (the others stay as stored). */
  header: Partial<MemberTotals>;
  /** Whether the sale's points now stand on the new member's balance (a return-cancel takes them back). */
  pointsApplied: boolean;
}

const orZero = (d: Decimal | null) => d ?? ZERO;

export function salePoints(h: SaleMemberFields): SalePoints {
  return { point: sub(orZero(h.newPoint), orZero(h.spendPoint)), mile: add(orZero(h.earnMile), orZero(h.adjustmentMile)) };
}

const negate = (p: SalePoints): SalePoints => ({ point: sub(ZERO, p.point), mile: sub(ZERO, p.mile) });

/**
 * What giving a registered sale another member does to points, by pointUpdateDivision.
 * `applied`: the sale's points stand on the balance of the member it has now. `newMember`: the
 * new member's balances. `recomputed`: the member totals of the sale computed for the new
 * member by the sale's own point rules (memberTotals through the sale's totals), needed for 2.
 */
export function changeSaleMember(input: {
  division: PointUpdateDivision;
  applied: boolean;
  sale: SaleMemberFields;
  newMember: { point: Decimal; mile: Decimal };
  recomputed: MemberTotals | null;
}): MemberChange {
  const { division, applied, sale, newMember } = input;
  if (division === '0') return { fromOld: null, toNew: null, header: {}, pointsApplied: false };
  if (division === '1') {
    // Only what the sale actually moved is moved; a sale that moved nothing moves nothing.
    if (!applied) return { fromOld: null, toNew: null, header: {}, pointsApplied: false };
    const moved = salePoints(sale);
    const header: Partial<MemberTotals> = {
      point: newMember.point,
      totalPoint: sub(add(newMember.point, orZero(sale.newPoint)), orZero(sale.spendPoint)),
    };
    if (sale.currentMile !== null) {
      header.currentMile = newMember.mile;
      header.totalMile = add(add(newMember.mile, orZero(sale.earnMile)), orZero(sale.adjustmentMile));
    }
    return { fromOld: negate(moved), toNew: moved, header, pointsApplied: true };
  }
  const recomputed = input.recomputed;
  if (!recomputed) throw new Error('pointUpdateDivision 2 needs the member totals computed for the new member');
  return {
    fromOld: applied ? negate(salePoints(sale)) : null,
    toNew: salePoints({ ...recomputed, spendPoint: sale.spendPoint }),
    header: recomputed,
    pointsApplied: true,
  };
}

// --- a member's balances (the point routes, member sales, attaching a member) ------------------

/**
 * A movement that takes from a balance may not leave it below zero; adding is always allowed
 * (a balance already below zero may grow back). `fields` are the request fields a refusal names.
 */
export function assertNotTakenBelowZero(
  memberId: number | string,
  balance: { point: string; mile: string },
  delta: SalePoints,
  fields: { point: string; mile: string },
): void {
  for (const name of ['point', 'mile'] as const) {
    const after = delta[name].plus(balance[name]);
    if (delta[name].isNegative() && after.isNegative()) {
      throw InvalidInput.field(
        fields[name],
        `member ${memberId} has ${balance[name]} ${name}s; a change of ${formatDecimal(delta[name])} would leave ${formatDecimal(after)}, below zero`,
      );
    }
  }
}

/**
 * Points past their expiry date expire: the points a member holds when the date (the last day
 * they can be used) lies before `today`; null when nothing expires (no date, not yet, no points).
 */
export function pointsDueToExpire(point: string, expireDate: string | null, today: string): Decimal | null {
  if (expireDate === null || expireDate >= today) return null;
  const held = new Decimal(point);
  return held.isPositive() && !held.isZero() ? held : null;
}
