/**
 * Date-time values in the interface carry a zone offset (YYYY-MM-DDThh:mm:ss+09:00).
 * Stored times are epoch milliseconds; these helpers render them in a contract's zone
 * and read any RFC 3339 offset on input.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Wall-clock parts of an instant in a zone. */
function wallClock(ms: number, zone: string) {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) parts[p.type] = p.value;
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

export function isValidTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * Zone offsets only change on quarter hours, so the offset of each 15-minute slot is
 * computed once with Intl (slow, ~6 µs) and the wall clock is then plain arithmetic.
 */
const SLOT_MS = 15 * 60 * 1000;
const offsets = new Map<string, number>();

function offsetMinutes(ms: number, zone: string): number {
  const slot = Math.floor(ms / SLOT_MS);
  const key = `${zone}|${slot}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const start = slot * SLOT_MS;
    const w = wallClock(start, zone);
    offset = Math.round((Date.UTC(+w.year, +w.month - 1, +w.day, +w.hour, +w.minute, +w.second) - start) / 60000);
    if (offsets.size > 50_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 2026-11-22T12:00:00+09:00 for the instant `ms` in `zone`. */
export function formatDateTime(ms: number, zone: string): string {
  const offset = offsetMinutes(ms, zone);
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offset * 60000);
  const abs = Math.abs(offset);
  return (
    `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
    `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}` +
    `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The calendar date (YYYY-MM-DD) of the instant `ms` in `zone`. */
export function formatDate(ms: number, zone: string): string {
  const w = wallClock(ms, zone);
  return `${w.year}-${w.month}-${w.day}`;
}

/** The first instant (epoch ms) of the calendar date `date` (YYYY-MM-DD) in `zone`. */
export function dayStart(date: string, zone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  // The offset at midnight wall time: guess with the offset at that UTC instant, then correct.
  const guess = wall - offsetMinutes(wall, zone) * 60000;
  return wall - offsetMinutes(guess, zone) * 60000;
}

/** The calendar date `days` after (negative: before) `date` (YYYY-MM-DD). */
export function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(y, m - 1, d + days));
  return `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
}

/** The calendar date after `date` (YYYY-MM-DD). */
export const nextDate = (date: string) => shiftDate(date, 1);

/** RFC 3339 date-time with an offset (or Z) to epoch ms; null when not such a value. */
export function parseDateTime(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  if (!isCalendarDate(+y!, +mo!, +d!) || +h! > 23 || +mi! > 59 || +s! > 59) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Instants we store and render: from 1900 to the end of 9999, so that every zone (±14 h)
 * still renders a four-digit year. Earlier or later values are refused on input.
 */
export const FIRST_INSTANT = Date.UTC(1900, 0, 1);
export const END_INSTANT = Date.UTC(9999, 11, 31);
export const isRenderableInstant = (ms: number) => ms >= FIRST_INSTANT && ms < END_INSTANT;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** True when year-month-day exists in the Gregorian calendar (arithmetic: Date.UTC maps years 0–99 to 19xx). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || month < 1 || month > 12 || day < 1) return false;
  const days = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day <= days;
}
