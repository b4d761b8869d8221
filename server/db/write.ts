import type { Sqlite } from './open.js';

/**
 * The one way the server writes. Every business change runs inside `write`, which opens
 * an IMMEDIATE SQLite transaction. The sync module adds its outbox row through `afterChange`
 * hooks, which run inside the same transaction, so a change and its outbox row commit together.
 *
 * The server's connection does not wait for a lock held by another process (busy timeout 0,
 * see open.ts): better-sqlite3 would wait on the event loop and freeze every request. A
 * write that finds the lock taken throws `DatabaseBusy` before anything is written; the route
 * layer (platform/http/busy.ts) runs the request again after a pause, and answers 503 when the lock
 * outlasts its limit. Processes that may wait (the CLI) open with a longer busy timeout.
 */
export type ChangeHook = (change: Change) => void;

export interface Change {
  contractId: string;
  entity: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
  /**
   * Only balances that merge by their movements changed (a member's points and miles): sync
   * sends the movement, not the row, and keeps the record's version (sync/balances.ts).
   */
  balanceOnly?: boolean;
}

/**
 * Another connection (the CLI, a backup, an sqlite3 shell) holds the database's lock, so the
 * write was not made: nothing of it was committed and the work may be run again.
 */
export class DatabaseBusy extends Error {
  constructor(cause: unknown) {
    super('the database is locked by another program', { cause });
    this.name = 'DatabaseBusy';
  }
}

/** SQLITE_BUSY and its extended codes (a lock held elsewhere); SQLITE_LOCKED is a same-connection conflict, not this. */
export const isBusyError = (error: unknown): boolean =>
  error instanceof DatabaseBusy || (typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY'));

export class Writer {
  private readonly hooks: ChangeHook[] = [];
  private pending: Change[] | null = null;
  private committed = 0;

  constructor(private readonly db: Sqlite) {}

  /**
   * How many write transactions this writer has committed. A caller that catches
   * DatabaseBusy compares it with the count it saw before its work began: unchanged, nothing
   * of that work can have been committed, so running it again cannot write anything twice.
   */
  get commits(): number {
    return this.committed;
  }

  /** Runs fn in one IMMEDIATE transaction; nested calls join the outer transaction. */
  write<T>(fn: () => T): T {
    if (this.pending) return fn();
    this.pending = [];
    try {
      const result = this.db
        .transaction(() => {
          const result = fn();
          for (const change of this.pending ?? []) for (const hook of this.hooks) hook(change);
          return result;
        })
        .immediate();
      this.committed++;
      return result;
    } catch (error) {
      // better-sqlite3 has rolled the transaction back (or never began it).
      if (isBusyError(error) && !(error instanceof DatabaseBusy)) throw new DatabaseBusy(error);
      throw error;
    } finally {
      this.pending = null;
    }
  }

  /** Repos report what they changed; hooks see it before the transaction commits. */
  changed(change: Change): void {
    if (!this.pending) throw new Error('changed() called outside write()');
    this.pending.push(change);
  }

  onChange(hook: ChangeHook): void {
    this.hooks.push(hook);
  }
}
