import { InvalidInput } from '../../domain/errors.js';
import type { DailySummaryRepo } from './closing-repo.js';

/**
 * The one open-day rule. Money is sacred: a closed day never changes behind its closing. A
 * store's business day is closed while a closing of that store and date is in force (made and
 * not released); a closed day takes no new record dated on it (a sale, a return-cancel, a
 * settlement, another closing), and a transaction the day closed keeps its member.
 *
 * Every writer of a record dated by business day calls assertDayOpen; the SQL is the closing
 * repo's (findInForce). Callers are listed in docs/decisions.md ("The open-day rule").
 */

/** The business day a record is dated on. */
export interface BusinessDay {
  contractId: string;
  storeId: number | string;
  /** YYYY-MM-DD in the contract's zone; null for a record not yet dated by a closing. */
  date: string | null;
  /**
   * For a record already written: whether it carries the closed mark (sumDivision 2). The mark
   * decides alone, since a transaction registered closed (an unknown terminal) lies in a closed
   * day that no closing made.
   */
  closedMark?: boolean;
}

/** What the refusal names: the request field the record was dated by, and how the detail reads. */
export interface ClosedDayRefusal {
  field: string;
  /** The detail after the field; alreadyClosed by default. */
  message?: (day: { storeId: number | string; date: string | null }) => string;
}

type Day = { storeId: number | string; date: string | null };

/** `store 1 is already closed for 2024-05-01` */
export const alreadyClosed = (day: Day) => `store ${day.storeId} is already closed for ${day.date}`;
/** … and the way out. */
export const releaseFirst = (day: Day) => `${alreadyClosed(day)}; release that closing first`;
/** … and the way out, with its request. */
export const releaseFirstAt = (day: Day) => `${releaseFirst(day)} (POST /daily_summaries/${day.storeId}/${day.date}/release)`;

/** A write to a transaction its day closed (sumDivision 2): member change, cancel. */
export const transactionOfClosedDay = (transactionHeadId: string | number | null | undefined) => (day: Day) =>
  `transaction ${transactionHeadId} belongs to the closed day ${day.date} of store ${day.storeId} (sumDivision 2): ` +
  `release the closing first (POST /daily_summaries/${day.storeId}/${day.date}/release)`;

/** Whether the day is closed (see BusinessDay.closedMark for a record already written). */
export function isDayClosed(closings: Pick<DailySummaryRepo, 'findInForce'>, day: BusinessDay): boolean {
  if (day.closedMark !== undefined) return day.closedMark;
  return day.date !== null && closings.findInForce(day.contractId, day.storeId, day.date) !== undefined;
}

/** Refuses a record dated on a closed day: InvalidInput naming `refusal.field`. */
export function assertDayOpen(closings: Pick<DailySummaryRepo, 'findInForce'>, day: BusinessDay, refusal: ClosedDayRefusal): void {
  if (isDayClosed(closings, day)) throw InvalidInput.field(refusal.field, (refusal.message ?? alreadyClosed)(day));
}
