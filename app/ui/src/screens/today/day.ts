/**
 * Business days in the contract's zone: the API filters sales by instants, so a day
 * (`2026-11-24` in Asia/Tokyo) becomes [its midnight, the next midnight − 1 ms] as UTC
 * date-times (the server takes any offset; its `-to` bounds are inclusive).
 */

/** The zone's offset from UTC at an instant, in ms (Tokyo: +9 h). */
function offsetMs(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The instant a date starts in the zone (checked twice: a DST change near midnight moves the offset). */
export function dayStart(date: string, zone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  const first = wall - offsetMs(wall, zone);
  return wall - offsetMs(first, zone);
}

/** `2026-11-30` → `2026-12-01`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The inclusive API range of the sales of one date: `{ from, to }` as date-times. */
export function dayRange(date: string, zone: string): { from: string; to: string } {
  return { from: iso(dayStart(date, zone)), to: iso(dayStart(addDays(date, 1), zone) - 1) };
}

/**
 * The widest range the transaction list takes (31 days) that ends with `date`: what a closing
 * of `date` closes is every settled sale on or before it, and settled sales older than a month
 * are not expected (a store closes daily).
 */
export function monthUpTo(date: string, zone: string): { from: string; to: string } {
  const end = dayStart(addDays(date, 1), zone);
  return { from: iso(end - 31 * 24 * 3600 * 1000), to: iso(end - 1) };
}

export const isIsoDate = (value: string | null | undefined): value is string =>
  !!value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
