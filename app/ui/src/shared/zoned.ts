/**
 * Calendar days and wall-clock times in the contract's time zone, whatever zone the PC runs in:
 * today's sales, the closing, the day picker, the reservation form, the sales chart and the CSV
 * export all speak the contract's days. Only
 * Intl is used (no time-zone library): the offset of a zone at an instant is read from
 * `timeZoneName: 'longOffset'` ("GMT+09:00").
 */

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const isIsoDate = (value: string | null | undefined): value is string => !!value && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** Minutes east of UTC of `zone` at the instant `ms` (540 for Asia/Tokyo). */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{1,2})(?::?(\d{2}))?/.exec(part ?? '');
  if (!m) return 0; // "GMT" alone: UTC
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** `+09:00` */
export function offsetText(minutes: number): string {
  return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** The instant of wall-clock `date` `time` (HH:mm) in `zone`; a time a DST gap skips lands after the gap. */
export function zonedInstant(date: string, time: string, zone: string): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  // Two passes: the offset at the guessed instant, then at the corrected one.
  const first = zoneOffsetMinutes(zone, wall);
  const second = zoneOffsetMinutes(zone, wall - first * 60_000);
  return wall - second * 60_000;
}

/** `2026-11-22T18:00:00+09:00`: what the API takes and gives, in the contract's zone. */
export function zonedIso(ms: number, zone: string): string {
  const offset = zoneOffsetMinutes(zone, ms);
  const wall = new Date(ms + offset * 60_000);
  const date = `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
  return `${date}T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}${offsetText(offset)}`;
}

/** The contract-zone date (`YYYY-MM-DD`) and time (`HH:mm`) of an instant, for form inputs. */
export function wallClock(ms: number, zone: string): { date: string; time: string } {
  const iso = zonedIso(ms, zone);
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/** Calendar arithmetic on `YYYY-MM-DD` (no zone involved). */
export function addDays(date: string, days: number): string {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, mo - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The first and the last second of a day in the zone (the API's ranges are inclusive). */
export function dayRange(date: string, zone: string): { from: number; to: number } {
  return { from: zonedInstant(date, '00:00', zone), to: zonedInstant(addDays(date, 1), '00:00', zone) - 1000 };
}

/** Minutes since the zone's midnight of `date` (may be negative or above 1440 for other days). */
export function minutesIntoDay(ms: number, date: string, zone: string): number {
  return (ms - zonedInstant(date, '00:00', zone)) / 60_000;
}

const utc = (ms: number) => new Date(ms).toISOString();

/**
 * The sales of one business day as the API filters them by instant: [its midnight, the next
 * midnight − 1 ms] as UTC date-times (the server takes any offset; its `-to` bounds are inclusive).
 */
export function saleDayRange(date: string, zone: string): { from: string; to: string } {
  return { from: utc(zonedInstant(date, '00:00', zone)), to: utc(zonedInstant(addDays(date, 1), '00:00', zone) - 1) };
}

/**
 * The widest range the transaction list takes (31 days) that ends with `date`: what a closing
 * of `date` closes is every settled sale on or before it, and settled sales older than a month
 * are not expected (a store closes daily).
 */
export function monthUpTo(date: string, zone: string): { from: string; to: string } {
  const end = zonedInstant(addDays(date, 1), '00:00', zone);
  return { from: utc(end - 31 * DAY_MS), to: utc(end - 1) };
}
