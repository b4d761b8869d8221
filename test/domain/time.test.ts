import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, isCalendarDate, isRenderableInstant, parseDateTime } from '../../server/domain/time.js';

describe('date-times in the contract zone', () => {
  const at = Date.parse('2026-11-22T15:30:45.900Z');

  it('renders with the zone offset, to the second', () => {
    expect(formatDateTime(at, 'Asia/Tokyo')).toBe('2026-11-23T00:30:45+09:00');
    expect(formatDateTime(at, 'UTC')).toBe('2026-11-22T15:30:45+00:00');
    expect(formatDateTime(at, 'America/New_York')).toBe('2026-11-22T10:30:45-05:00');
    expect(formatDateTime(Date.parse('2026-07-01T12:00:00Z'), 'America/New_York')).toBe('2026-07-01T08:00:00-04:00');
    expect(formatDateTime(Date.parse('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01T05:30:00+05:30');
  });

  it('follows daylight-saving changes to the second', () => {
    expect(formatDateTime(Date.parse('2026-03-08T06:59:59Z'), 'America/New_York')).toBe('2026-03-08T01:59:59-05:00');
    expect(formatDateTime(Date.parse('2026-03-08T07:00:00Z'), 'America/New_York')).toBe('2026-03-08T03:00:00-04:00');
    expect(formatDateTime(Date.parse('2026-11-01T05:59:59Z'), 'America/New_York')).toBe('2026-11-01T01:59:59-04:00');
    expect(formatDateTime(Date.parse('2026-11-01T06:00:00Z'), 'America/New_York')).toBe('2026-11-01T01:00:00-05:00');
    expect(formatDateTime(Date.parse('1969-12-31T23:59:59.500Z'), 'Asia/Tokyo')).toBe('1970-01-01T08:59:59+09:00');
  });

  it('gives the calendar date in the zone', () => {
    expect(formatDate(at, 'Asia/Tokyo')).toBe('2026-11-23');
    expect(formatDate(at, 'UTC')).toBe('2026-11-22');
  });

  it('reads any RFC 3339 offset and refuses the rest', () => {
    expect(parseDateTime('2026-11-23T00:30:45+09:00')).toBe(Date.parse('2026-11-22T15:30:45Z'));
    expect(parseDateTime('2026-11-22T15:30:45Z')).toBe(Date.parse('2026-11-22T15:30:45Z'));
    expect(parseDateTime('2026-11-22T15:30:45.250-01:30')).toBe(Date.parse('2026-11-22T17:00:45.250Z'));
    for (const bad of ['2026-11-22', '2026-11-22T15:30:45', '2026-02-30T00:00:00Z', '2026-11-22T24:00:00Z', 'yesterday']) {
      expect(parseDateTime(bad), bad).toBeNull();
    }
  });

  it('knows the calendar', () => {
    expect(isCalendarDate(2024, 2, 29)).toBe(true);
    expect(isCalendarDate(2026, 2, 29)).toBe(false);
    expect(isCalendarDate(2026, 13, 1)).toBe(false);
    expect(isCalendarDate(2026, 0, 1)).toBe(false);
    // Years 0–99 are not 1900–1999: year 0 is a leap year, 1900 is not.
    expect(isCalendarDate(0, 2, 29)).toBe(true);
    expect(isCalendarDate(1900, 2, 29)).toBe(false);
    expect(isCalendarDate(2000, 2, 29)).toBe(true);
    expect(isCalendarDate(2100, 2, 29)).toBe(false);
  });

  it('accepts instants from 1900 to 9999 only, so every zone renders a four-digit year', () => {
    for (const value of ['0000-01-01T00:00:00+14:00', '0050-06-01T00:00:00Z', '1899-12-31T23:59:59Z', '9999-12-31T20:00:00-12:00']) {
      expect(isRenderableInstant(parseDateTime(value)!), value).toBe(false);
    }
    for (const value of ['1900-01-01T00:00:00Z', '9999-12-30T23:59:59Z']) {
      const ms = parseDateTime(value)!;
      expect(isRenderableInstant(ms), value).toBe(true);
      for (const zone of ['Pacific/Kiritimati', 'Etc/GMT+12', 'Asia/Tokyo']) expect(formatDateTime(ms, zone)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
  });
});
