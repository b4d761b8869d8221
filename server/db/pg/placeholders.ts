/**
 * Our queries are written for better-sqlite3: positional `?` with an array of values, or named
 * `@name` with an object. PostgreSQL numbers its parameters `$1..$n`. This turns one into the
 * other in the statement's code only (the dialect's reading of SQL text, sql-text.ts): string
 * literals ('it''s ?'), quoted identifiers ("a?") and dollar-quoted bodies are left as written,
 * comments are dropped.
 *
 * A named parameter used twice is sent once ($1 twice in the text), as SQLite binds it once.
 */
import { pieces } from '../dialect/sql-text.js';

export type SqlParams = readonly unknown[] | Readonly<Record<string, unknown>> | MixedParams;

/**
 * Both kinds in one statement, as better-sqlite3 binds `run(contractId, id, { ...patch, now })`
 * for `... SET name = @name, upd_at = @now WHERE contract_id = ? AND id = ?` (master-repo.ts's
 * updateFields): the `?` take `positional` in order, the `@name` take `named`.
 */
export class MixedParams {
  constructor(
    readonly positional: readonly unknown[],
    readonly named: Readonly<Record<string, unknown>>,
  ) {}
}

export interface NumberedQuery {
  text: string;
  values: unknown[];
}

/**
 * The SQL texts seen, cut into pieces: a repo runs the same few hundred statements again and again
 * (better-sqlite3 prepares them once), so each is read once. Bounded for SQL built per call.
 */
const cutTexts = new Map<string, ReturnType<typeof pieces>>();
const CUT_TEXTS_KEPT = 2000;

function cut(sql: string): ReturnType<typeof pieces> {
  let cutText = cutTexts.get(sql);
  if (!cutText) {
    if (cutTexts.size >= CUT_TEXTS_KEPT) cutTexts.clear();
    cutText = pieces(sql);
    cutTexts.set(sql, cutText);
  }
  return cutText;
}

export function numberPlaceholders(sql: string, params: SqlParams = []): NumberedQuery {
  const mixed = params instanceof MixedParams ? params : null;
  const positional = mixed ? mixed.positional : Array.isArray(params) ? (params as readonly unknown[]) : null;
  const named = mixed ? mixed.named : positional ? null : (params as Readonly<Record<string, unknown>>);
  const values: unknown[] = [];
  const namedIndex = new Map<string, number>();
  let positionalUsed = 0;
  const numberOne = (placeholder: string): string => {
    if (placeholder === '?') {
      if (!positional) throw new RangeError('a positional parameter (?) needs an array of values');
      if (positionalUsed >= positional.length) throw new RangeError(`too few parameter values: the statement has more than ${positional.length} ?`);
      values.push(positional[positionalUsed++]);
      return `$${values.length}`;
    }
    const name = placeholder.slice(1);
    if (!named) throw new RangeError(`the named parameter @${name} needs an object of values`);
    if (!(name in named)) throw new RangeError(`missing named parameter "${name}"`);
    let index = namedIndex.get(name);
    if (index === undefined) {
      values.push(named[name]);
      index = values.length;
      namedIndex.set(name, index);
    }
    return `$${index}`;
  };
  const text = cut(sql)
    .map((piece) => (piece.code ? piece.text.replace(/\?|@[A-Za-z_][A-Za-z0-9_]*/g, numberOne) : piece.text))
    .join('');
  if (positional && positionalUsed !== positional.length) {
    throw new RangeError(`too many parameter values: ${positional.length} given for ${positionalUsed} ?`);
  }
  return { text, values };
}
