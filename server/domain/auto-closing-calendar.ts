import { formatDate, formatDateTime, nextDate, shiftDate } from './time.js';

/** The calendar of the automatic closing: when a store's closing time has come and which dates it closes. */

/** True when the wall-clock time of `now` in `zone` is at or after `closingTime` (HH:MM). */
export function closingTimeReached(now: number, zone: string, closingTime: string): boolean {
  return formatDateTime(now, zone).slice(11, 16) >= closingTime;
}

/** Closing times before this close the business day that just ended (the previous date). */
export const NEXT_DAY_CLOSING_BEFORE = '06:00';
/** How many missed dates before the target the automatic closing catches up, at most. */
export const CATCH_UP_DAYS = 7;

/**
 * The date an automatic closing at `closingTime` closes at `now`: the previous date for a
 * closing time from 00:00 to 05:59 (the business day that just ended), else today; null while
 * the closing time of the current day is not reached.
 */
export function autoClosingDate(now: number, zone: string, closingTime: string): string | null {
  if (!closingTimeReached(now, zone, closingTime)) return null;
  const today = formatDate(now, zone);
  return closingTime < NEXT_DAY_CLOSING_BEFORE ? shiftDate(today, -1) : today;
}

/**
 * The dates an automatic closing closes, oldest first: each unclosed date from the day after
 * the store's latest closing (released ones included: a released closing is not redone), from
 * CATCH_UP_DAYS before the target at the earliest, up to the target; only the target for a store never closed.
 */
export function autoClosingDates(target: string, latestClosed: string | null): string[] {
  if (latestClosed === null) return [target];
  const earliest = shiftDate(target, -CATCH_UP_DAYS);
  const dates: string[] = [];
  for (let date = latestClosed >= earliest ? nextDate(latestClosed) : earliest; date <= target; date = nextDate(date)) dates.push(date);
  return dates;
}
