/**
 * Values as our SQLite code reads them. better-sqlite3 gives integers as JS numbers, decimals
 * (kept as TEXT) as strings, and has no booleans, dates or JSON values: a comparison is 1 or 0
 * and json_* functions return text the repos JSON.parse themselves. So from PostgreSQL:
 *
 * - int8 (bigint, count(*), sum of integers) → number while it is a safe integer, else the
 *   exact digits as a string (a number would silently lose them);
 * - numeric → the exact digits as a string (money and quantities; never a float);
 * - boolean → 1 or 0;
 * - json and jsonb → the text, unparsed;
 * - date, time and timestamp types → PostgreSQL's text, not a Date (our times are epoch ms);
 * - int2, int4, float4, float8 → number, text types → string (pg's defaults).
 */
import pg from 'pg';

const OID = {
  bool: 16,
  int8: 20,
  json: 114,
  numeric: 1700,
  jsonb: 3802,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  timetz: 1266,
  interval: 1186,
} as const;

const asText = (value: string) => value;

export function int8Value(value: string): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

const TEXT_PARSERS: Record<number, (value: string) => unknown> = {
  [OID.bool]: (value) => (value === 't' ? 1 : 0),
  [OID.int8]: int8Value,
  [OID.numeric]: asText,
  [OID.json]: asText,
  [OID.jsonb]: asText,
  [OID.date]: asText,
  [OID.time]: asText,
  [OID.timestamp]: asText,
  [OID.timestamptz]: asText,
  [OID.timetz]: asText,
  [OID.interval]: asText,
};

/** The `types` option of a pg.Client: ours where SQLite's reading differs, pg's elsewhere. */
export const sqliteLikeTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (format !== 'binary' && TEXT_PARSERS[oid]) return TEXT_PARSERS[oid];
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as unknown as pg.CustomTypesConfig;
