/**
 * Rows of a large query in batches, from a server-side cursor (pg-cursor), so memory stays bounded
 * by the batch whatever the result's size: the CSV export on PostgreSQL reads its rows this way, as
 * it iterates a better-sqlite3 statement on SQLite.
 *
 * The cursor lives in a READ ONLY transaction: every batch comes from the same snapshot, and the
 * statement timeout is the caller's (an export may read for minutes while its file is written).
 * Stopping early (break, an error in the consumer) closes the cursor and frees the connection.
 */
import type pg from 'pg';
import Cursor from 'pg-cursor';

export interface CursorOptions {
  /** Rows per batch. */
  batchSize?: number;
  /** statement_timeout for this read, 0 for none; the pool's otherwise. */
  statementTimeoutMs?: number;
  /** How values come back; the pool's `types` by default (pg-cursor does not read them itself). */
  types?: pg.CustomTypesConfig;
  /**
   * Run on the cursor's connection, in its transaction, before the cursor opens (e.g. a count of
   * the rows). The transaction is then REPEATABLE READ, so what it reads and every batch come
   * from one snapshot (the CSV export's total is the number of rows it writes).
   */
  first?: (client: pg.ClientBase) => Promise<void>;
}

export async function* cursorBatches<Row = Record<string, unknown>>(
  pool: pg.Pool,
  text: string,
  values: unknown[] = [],
  options: CursorOptions = {},
): AsyncGenerator<Row[]> {
  const batchSize = options.batchSize ?? 500;
  const types = options.types ?? pool.options.types;
  const client = await pool.connect();
  let broken: Error | undefined;
  let committed = false;
  try {
    await client.query(options.first ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN READ ONLY');
    if (options.statementTimeoutMs !== undefined) {
      await client.query(`SET LOCAL statement_timeout = ${Math.max(0, Math.trunc(options.statementTimeoutMs))}`);
    }
    if (options.first) await options.first(client);
    const cursor = client.query(new Cursor<Row>(text, values, types ? { types } : {}));
    try {
      for (;;) {
        const rows = await cursor.read(batchSize);
        if (rows.length === 0) break;
        yield rows;
      }
    } finally {
      await cursor.close().catch(() => {});
    }
    await client.query('COMMIT');
    committed = true;
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection in an unknown state (an error mid-transaction, an early stop) is not reused.
    if (broken) client.release(broken);
    else {
      if (!committed) await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  }
}
