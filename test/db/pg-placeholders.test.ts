import { describe, expect, it } from 'vitest';
import { numberPlaceholders } from '../../server/db/pg/placeholders.js';

describe('numbering better-sqlite3 placeholders for PostgreSQL', () => {
  it('numbers positional ? in order with their values', () => {
    expect(numberPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)', [1, 'x', null])).toEqual({
      text: 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)',
      values: [1, 'x', null],
    });
  });

  it('sends a named @parameter once however often the statement uses it', () => {
    expect(numberPlaceholders('UPDATE t SET a = @now, b = @now WHERE id = @id', { id: 7, now: 100, unused: 'x' })).toEqual({
      text: 'UPDATE t SET a = $1, b = $1 WHERE id = $2',
      values: [100, 7],
    });
  });

  it('leaves ? and @ alone inside literals, quoted names and dollar quotes, and drops comments', () => {
    const sql = `SELECT 'a?''@b' AS "c?", x::text, $$ ? $$ -- why?\n, /* @no */ ? AS v`;
    expect(numberPlaceholders(sql, [5])).toEqual({ text: `SELECT 'a?''@b' AS "c?", x::text, $$ ? $$  \n,   $1 AS v`, values: [5] });
  });

  it('refuses too few or too many values and a missing name, as better-sqlite3 does', () => {
    expect(() => numberPlaceholders('SELECT ?, ?', [1])).toThrow(RangeError);
    expect(() => numberPlaceholders('SELECT ?', [1, 2])).toThrow('too many parameter values: 2 given for 1 ?');
    expect(() => numberPlaceholders('SELECT @a', { b: 1 })).toThrow('missing named parameter "a"');
    expect(() => numberPlaceholders('SELECT @a', [1])).toThrow('the named parameter @a needs an object of values');
  });
});
