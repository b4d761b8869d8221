// Array parameters written as PostgreSQL's array text on the calling thread
// (server/db/pg/array-text.ts): the text `pg` itself would send, and the same values back from a
// real PostgreSQL through the synchronous client. Its worker runs from dist/, hence ensureDistBuilt.
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { arrayText, withArraysAsText } from '../../server/db/pg/array-text.js';
import { usePgSyncClient } from '../helpers/pg-sync-client.js';

const pgUtils = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): unknown };

// Texts an array literal must carry as they are.
const TEXTS = ['plain', '', ' ', '  blanks  ', 'a "quoted" word', 'back\\slash', '\\"', '"', '\\', '{braced}', 'a,b', 'NULL', 'null', 'line\nbreak', 'tab\t', 'é 日本 🍙', '1280', '-12.345'];
const NUMBERS = [0, -0, 1, -1, 1.5, -12.25, 1e-7, 123456.789, 9007199254740991, -9007199254740991, 1e21, Number.NaN, Number.POSITIVE_INFINITY];

const postgres = usePgSyncClient();

it("writes arrays of strings, numbers and nulls as pg's own array text", () => {
  for (const values of [TEXTS, NUMBERS, [null, undefined, 'x', 2, null], [], [null], ['only'], [...TEXTS, ...NUMBERS, null]]) {
    expect(arrayText(values)).toBe(pgUtils.prepareValue(values));
  }
});

it('leaves to pg an array with any other element, and other values as they are', () => {
  for (const values of [[true], ['a', false], [Buffer.from('ab')], [new Date(0)], [{ a: 1 }], [['nested']], [1n]]) {
    expect(arrayText(values)).toBeUndefined();
  }
  const other = [true];
  expect(withArraysAsText(['a', 1, null, ['x', null], other, Buffer.from('b')])).toEqual(['a', 1, null, '{"x",NULL}', other, Buffer.from('b')]);
});

it('reads back from PostgreSQL the values given, through the client', async () => {
  const client = await postgres.connect();
  const [texts] = client.query<{ a: string[] }>('SELECT CAST(? AS text[]) AS a', [TEXTS]).rows.map((r) => r.a);
  expect(texts).toEqual(TEXTS);
  const withNulls = client.query<{ a: (string | null)[] }>('SELECT CAST(? AS text[]) AS a', [[null, 'NULL', undefined, '']]).rows[0]!.a;
  expect(withNulls).toEqual([null, 'NULL', null, '']);
  const finite = NUMBERS.filter((n) => Number.isFinite(n));
  const doubles = client.query<{ n: number }>('SELECT n FROM unnest(CAST(? AS double precision[])) WITH ORDINALITY AS u(n, k) ORDER BY k', [finite]).rows.map((r) => r.n);
  // -0 is written "0", as pg writes any -0 parameter (its toString).
  expect(doubles).toEqual(finite.map((n) => (Object.is(n, -0) ? 0 : n)));
  const ids = client.query<{ n: number }>('SELECT n FROM unnest(CAST(? AS bigint[])) AS n ORDER BY n', [[3, 900001004, null, -7]]).rows.map((r) => r.n);
  expect(ids).toEqual([-7, 3, 900001004, null]);
});
