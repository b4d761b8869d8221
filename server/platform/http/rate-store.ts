import type { AppDeps } from '../../deps.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The rate limits' counts in the database (0031_rate_limit_counters.sql), for several central
 * processes on one database: each counts every process's requests, so a contract's limit holds
 * however the requests are spread. A window starts at a key's first request, as in
 * @fastify/rate-limit's memory store. Times come from the injected clock.
 *
 * The count is one statement outside the Writer: it is no business change (no outbox, no
 * hooks), and it must not count as a commit of the request it precedes, which decides whether
 * a request blocked by another program's lock may be run again (busy.ts).
 *
 * The stored columns are named by the table's alias: PostgreSQL's DO UPDATE also sees the
 * proposed row (EXCLUDED), where an unqualified name is ambiguous. One statement, atomic on both
 * engines (PostgreSQL locks the key's row for the update), so concurrent processes never lose a hit.
 */
export function databaseRateStore(deps: Pick<AppDeps, 'db' | 'clock'>) {
  const upsert = deps.db.prepare(
    `INSERT INTO rate_limit_counters AS c (key, window_start, hits) VALUES (@key, @now, 1)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN c.window_start + @window <= @now THEN 1 ELSE c.hits + 1 END,
       window_start = CASE WHEN c.window_start + @window <= @now THEN @now ELSE c.window_start END
     RETURNING hits, window_start`,
  );
  const select = deps.db.prepare('SELECT hits, window_start FROM rate_limit_counters WHERE key = ?');

  return class DatabaseRateStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      let row: { hits: number; window_start: number };
      const now = deps.clock.now().getTime();
      try {
        row = upsert.get({ key, now, window: timeWindow }) as typeof row;
      } catch (error) {
        return callback(error as Error);
      }
      callback(null, { current: row.hits, ttl: row.window_start + timeWindow - now });
    }

    read(key: string, callback: Callback, timeWindow: number): void {
      const now = deps.clock.now().getTime();
      const row = select.get(key) as { hits: number; window_start: number } | undefined;
      if (!row || row.window_start + timeWindow <= now) return callback(null, { current: 0, ttl: 0 });
      callback(null, { current: row.hits, ttl: row.window_start + timeWindow - now });
    }

    /** Keys name their limit: every limiter shares the one table. */
    child(): DatabaseRateStore {
      return this;
    }
  };
}
