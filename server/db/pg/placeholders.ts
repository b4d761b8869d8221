/**
 * Our queries are written for better-sqlite3: positional `?` with an array of values, or named
 * `@name` with an object. PostgreSQL numbers its parameters `$1..$n`. This turns one into the
 * other, leaving alone what only looks like a parameter: string literals ('it''s ?'), quoted
 * identifiers ("a?"), comments, dollar-quoted bodies ($$ ... $$) and casts (`x::text`).
 *
 * A named parameter used twice is sent once ($1 twice in the text), as SQLite binds it once.
 */

export type SqlParams = readonly unknown[] | Readonly<Record<string, unknown>>;

export interface NumberedQuery {
  text: string;
  values: unknown[];
}

export function numberPlaceholders(sql: string, params: SqlParams = []): NumberedQuery {
  const positional = Array.isArray(params) ? (params as readonly unknown[]) : null;
  const named = positional ? null : (params as Readonly<Record<string, unknown>>);
  const values: unknown[] = [];
  const namedIndex = new Map<string, number>();
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const skipped = quotedOrCommentEnd(sql, i);
    if (skipped > i) {
      out += sql.slice(i, skipped);
      i = skipped;
      continue;
    }
    const ch = sql[i]!;
    if (ch === '?') {
      if (!positional) throw new RangeError('a positional parameter (?) needs an array of values');
      if (values.length >= positional.length) throw new RangeError(`too few parameter values: the statement has more than ${positional.length} ?`);
      values.push(positional[values.length]);
      out += `$${values.length}`;
      i++;
      continue;
    }
    if (ch === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))![0];
      if (!named) throw new RangeError(`the named parameter @${name} needs an object of values`);
      if (!(name in named)) throw new RangeError(`missing named parameter "${name}"`);
      let index = namedIndex.get(name);
      if (index === undefined) {
        values.push(named[name]);
        index = values.length;
        namedIndex.set(name, index);
      }
      out += `$${index}`;
      i += 1 + name.length;
      continue;
    }
    out += ch;
    i++;
  }
  if (positional && values.length !== positional.length) {
    throw new RangeError(`too many parameter values: ${positional.length} given for ${values.length} ?`);
  }
  return { text: out, values };
}

/** The end of a literal, quoted identifier, comment or dollar-quoted body starting at `i`, or `i` when none starts there. */
function quotedOrCommentEnd(sql: string, i: number): number {
  const ch = sql[i];
  const next = sql[i + 1];
  if (ch === "'" || ch === '"') return closingQuote(sql, i + 1, ch);
  if (ch === '-' && next === '-') {
    const end = sql.indexOf('\n', i + 2);
    return end < 0 ? sql.length : end + 1;
  }
  if (ch === '/' && next === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end < 0 ? sql.length : end + 2;
  }
  if (ch === ':' && next === ':') return i + 2;
  if (ch === '$') {
    const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
    // $1 is a parameter already numbered; only $$ and $tag$ open a dollar-quoted body.
    if (tag) {
      const end = sql.indexOf(tag[0], i + tag[0].length);
      return end < 0 ? sql.length : end + tag[0].length;
    }
  }
  return i;
}

/** The index after the quote closing a literal opened before `from`; a doubled quote is part of it. */
function closingQuote(sql: string, from: number, quote: string): number {
  let j = from;
  while (j < sql.length) {
    if (sql[j] === quote) {
      if (sql[j + 1] === quote) {
        j += 2;
        continue;
      }
      return j + 1;
    }
    j++;
  }
  return sql.length;
}
