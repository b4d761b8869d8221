import type { Clock } from '../../clock.js';
import type { Statement } from 'better-sqlite3';
import type { AppDeps } from '../../deps.js';

/** An attempt `take` counted; handed back to `giveBack` when the login succeeds. */
export interface TakenAttempt {
  taken: true;
  key: string;
  /** When the window it was counted in began (ms): a give-back never reaches into a later window. */
  windowStart: number;
}

export interface RefusedAttempt {
  taken: false;
  /** How long until the key's window ends and it may try again. */
  retryAfterMs: number;
}

/**
 * The login throttle's counters, one per key (a username, a client address), each counted in a
 * fixed window that its first attempt begins. Counting and refusing are one step, so attempts
 * sent in parallel cannot all pass a check before any of them is counted. Asynchronous so a
 * store shared by several server processes (the database) can stand in for the memory one.
 */
export interface LoginAttempts {
  /** Counts an attempt against `key` if fewer than `max` are counted in its window; else refuses it, counting nothing. */
  take(key: string, max: number, windowMs: number): Promise<TakenAttempt | RefusedAttempt>;
  /** Takes back an attempt that `take` counted, if its window has not ended since. */
  giveBack(attempt: TakenAttempt): Promise<void>;
}

interface Window {
  start: number;
  end: number;
  count: number;
}

/**
 * The counters in this process's memory: they last until the server stops. A key is kept only
 * while its window lasts and something is counted in it, so refused attempts (which a flood
 * consists of) add nothing.
 */
export class MemoryLoginAttempts implements LoginAttempts {
  // In the order windows began: nearly the order they end, so expired ones are dropped from the front.
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  async take(key: string, max: number, windowMs: number): Promise<TakenAttempt | RefusedAttempt> {
    const now = this.clock.now().getTime();
    this.dropEnded(now);
    let window = this.windows.get(key);
    if (!window || window.end <= now) {
      this.windows.delete(key);
      window = { start: now, end: now + windowMs, count: 0 };
    }
    if (window.count >= max) return { taken: false, retryAfterMs: window.end - now };
    window.count++;
    this.windows.set(key, window);
    return { taken: true, key, windowStart: window.start };
  }

  async giveBack(attempt: TakenAttempt): Promise<void> {
    const window = this.windows.get(attempt.key);
    if (!window || window.start !== attempt.windowStart) return;
    window.count--;
    if (window.count <= 0) this.windows.delete(attempt.key);
  }

  private dropEnded(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.end > now) break;
      this.windows.delete(key);
    }
  }
}

/**
 * A key as stored: PostgreSQL's text holds no NUL, which the throttle's keys use to part a
 * contract from a username (and a username may hold), so NUL is written \0 and a backslash \\.
 */
const storedKey = (key: string) => key.replace(/\\/g, '\\\\').replace(/\u0000/g, '\\0');

/** Ended windows are deleted at most this often (per process), by the take that finds it due. */
const PURGE_EVERY_MS = 60_000;

/**
 * The counters in the database (0045_cluster_counters_exports.sql), for several central processes
 * on one database (`serve --rate-limit-shared`): each process counts every process's attempts, so
 * the limit holds however a guesser's requests are spread. Each step is one statement outside the
 * Writer, as the rate limits' counts (platform/http/rate-store.ts): it is no business change, and
 * an attempt must stay counted when the login it precedes fails. Times come from the injected clock.
 *
 * take is one atomic UPSERT on both engines (PostgreSQL locks the key's row for it): it begins a
 * new window when the stored one has ended, counts while fewer than `max` are counted, and
 * changes nothing otherwise (its WHERE fails, so no row comes back: refused). Attempts sent in
 * parallel to several processes are therefore cut off at the limit together. giveBack takes one
 * back only from the window it was counted in (window_start matches), never from a later one.
 */
export class DatabaseLoginAttempts implements LoginAttempts {
  private readonly upsert: Statement<[Record<string, string | number>]>;
  private readonly windowOf: Statement<unknown[]>;
  private readonly giveBackOne: Statement<unknown[]>;
  private readonly dropEmpty: Statement<unknown[]>;
  private readonly purge: Statement<unknown[]>;
  private readonly clock: Clock;
  private purgedAt = -Infinity;

  constructor(deps: Pick<AppDeps, 'db' | 'clock'>) {
    const { db } = deps;
    this.clock = deps.clock;
    // Named by the table's alias: PostgreSQL's DO UPDATE also sees EXCLUDED (rate-store.ts).
    this.upsert = db.prepare(
      `INSERT INTO login_attempt_counters AS c (key, window_start, attempts) VALUES (@key, @now, 1)
       ON CONFLICT (key) DO UPDATE SET
         attempts = CASE WHEN c.window_start + @window <= @now THEN 1 ELSE c.attempts + 1 END,
         window_start = CASE WHEN c.window_start + @window <= @now THEN @now ELSE c.window_start END
       WHERE c.window_start + @window <= @now OR c.attempts < @max
       RETURNING window_start`,
    );
    this.windowOf = db.prepare('SELECT window_start FROM login_attempt_counters WHERE key = ?');
    this.giveBackOne = db.prepare('UPDATE login_attempt_counters SET attempts = attempts - 1 WHERE key = ? AND window_start = ? AND attempts > 0');
    this.dropEmpty = db.prepare('DELETE FROM login_attempt_counters WHERE key = ? AND attempts <= 0');
    this.purge = db.prepare('DELETE FROM login_attempt_counters WHERE window_start <= ?');
  }

  async take(key: string, max: number, windowMs: number): Promise<TakenAttempt | RefusedAttempt> {
    const now = this.clock.now().getTime();
    if (now - this.purgedAt >= PURGE_EVERY_MS) {
      this.purgedAt = now;
      this.purge.run(now - windowMs);
    }
    // As the memory counters: a limit of 0 refuses every attempt for a whole window, counting none.
    if (max <= 0) return { taken: false, retryAfterMs: windowMs };
    const row = this.upsert.get({ key: storedKey(key), now, window: windowMs, max }) as { window_start: number } | undefined;
    if (row) return { taken: true, key, windowStart: row.window_start };
    const start = (this.windowOf.get(storedKey(key)) as { window_start: number } | undefined)?.window_start ?? now;
    return { taken: false, retryAfterMs: Math.max(0, start + windowMs - now) };
  }

  async giveBack(attempt: TakenAttempt): Promise<void> {
    const key = storedKey(attempt.key);
    if (this.giveBackOne.run(key, attempt.windowStart).changes === 1) this.dropEmpty.run(key);
  }
}
