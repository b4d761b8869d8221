import { useMemo } from 'react';
import { useLang, type Lang } from '../i18n';
import { useSession } from '../session';

/** The zone when no contract is known yet (the server's default for a new contract). */
export const DEFAULT_TIME_ZONE = 'Asia/Tokyo';

const yenFormat = new Intl.NumberFormat('ja-JP', { style: 'currency', currency: 'JPY', maximumFractionDigits: 2 });

/**
 * `¥1,234` (negative `-¥1,234`). The API sends amounts as decimal strings; a fraction (a tax
 * computed before rounding) is shown, not hidden. ICU writes the full-width ￥ for ja-JP; the
 * half-width ¥ is what receipts and the spec show. Empty or non-numeric input gives ''.
 */
export function yen(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return '';
  return yenFormat.format(n).replace('\uFFE5', '\u00A5');
}

/** The Intl locale of each UI language (numbers, dates, units). */
export const LOCALES: Record<Lang, string> = { ja: 'ja-JP', en: 'en-GB' };

const toDate = (value: string | number | Date) => (value instanceof Date ? value : new Date(value));

/** `2026/11/22 10:00` (ja) or `22 Nov 2026, 10:00` (en) in the contract's time zone. */
export function dateTime(value: string | number | Date | null | undefined, lang: Lang, timeZone = DEFAULT_TIME_ZONE): string {
  if (value === null || value === undefined || value === '') return '';
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return new Intl.DateTimeFormat(LOCALES[lang], { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** A calendar date; `YYYY-MM-DD` strings (business dates) are shown as they are, not shifted by a zone. */
export function date(value: string | number | Date | null | undefined, lang: Lang, timeZone = DEFAULT_TIME_ZONE): string {
  if (value === null || value === undefined || value === '') return '';
  const plain = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = plain ? new Date(`${value}T00:00:00Z`) : toDate(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return new Intl.DateTimeFormat(LOCALES[lang], { timeZone: plain ? 'UTC' : timeZone, dateStyle: 'medium' }).format(d);
}

export function time(value: string | number | Date | null | undefined, lang: Lang, timeZone = DEFAULT_TIME_ZONE): string {
  if (value === null || value === undefined || value === '') return '';
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return new Intl.DateTimeFormat(LOCALES[lang], { timeZone, timeStyle: 'short' }).format(d);
}

/** `1,234` (a quantity string as the API sends it); '' for empty, the text itself when not a number. */
export function quantity(value: string | number | null | undefined, lang: Lang): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 3 }).format(n) : String(value);
}

/**
 * A cost (tax excluded) as the API keeps it, to 5 decimals: `¥2,100.5` — yen grouping with the
 * fraction the API has (trailing zeros dropped), so no cost is rounded on screen.
 */
export function cost(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  const text = new Intl.NumberFormat('ja-JP', { minimumFractionDigits: 0, maximumFractionDigits: 5 }).format(Math.abs(n));
  return `${n < 0 ? '-' : ''}\u00A5${text}`;
}

/** Today's business date (`YYYY-MM-DD`) in the zone, for API filters such as sum_date. */
export function isoDate(at: Date, timeZone = DEFAULT_TIME_ZONE): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The formatters bound to the current language and the logged-in contract's zone. */
export function useFormat() {
  const { lang } = useLang();
  const zone = useSession().session?.timeZone ?? DEFAULT_TIME_ZONE;
  return useMemo(
    () => ({
      yen,
      dateTime: (v: Parameters<typeof dateTime>[0]) => dateTime(v, lang, zone),
      date: (v: Parameters<typeof date>[0]) => date(v, lang, zone),
      time: (v: Parameters<typeof time>[0]) => time(v, lang, zone),
      today: () => isoDate(new Date(), zone),
      timeZone: zone,
    }),
    [lang, zone],
  );
}
