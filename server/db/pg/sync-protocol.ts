// What the main thread and the PostgreSQL worker (sync-worker.ts) say to each other. The main
// thread posts a request on its MessagePort and sleeps on `signal` (Atomics.wait); the worker
// posts the answer on its port first, then sets `signal` and wakes it, so the answer is already
// queued when the main thread reads it with receiveMessageOnPort.
import type { MessagePort } from 'node:worker_threads';
import type { SerializedPgError } from './errors.js';

export interface PgConnectionOptions {
  /** postgres://user:password@host:port/db, or several hosts (`h1:p1,h2:p2`) the worker tries in turn (connect.ts). */
  connectionString: string;
  /** Opening a connection gives up after this long. */
  connectTimeoutMs: number;
  /** PostgreSQL cancels a statement running longer (statement_timeout); 0 for none. */
  statementTimeoutMs: number;
  /** A lock waited for longer fails the statement (lock_timeout); 0 for none. */
  lockTimeoutMs: number;
  applicationName: string;
}

export interface WorkerInput {
  pgSyncClient: {
    port: MessagePort;
    /** Int32Array over a SharedArrayBuffer: [0] is 0 while a call runs, 1 when its answer is posted. */
    signal: SharedArrayBuffer;
    options: PgConnectionOptions;
  };
}

export type PgRequest =
  | {
      id: number;
      op: 'query';
      /** Run one after the other in one hop; the first that fails ends the run. */
      statements: { text: string; values: unknown[] }[];
      /**
       * The statements run inside a transaction (the first may be its BEGIN): none commits by
       * itself, so the worker writes them all to PostgreSQL at once and reads the answers after
       * (pipelined: one round trip for the lot); a failure aborts the transaction, so those
       * behind it fail too and the first failure is the answer.
       */
      inTransaction?: boolean;
      /**
       * Inside a transaction: the connection the transaction began on. The worker refuses the
       * statement when that connection is gone, rather than run it on a new one outside any
       * transaction.
       */
      connection?: number;
    }
  | { id: number; op: 'close' };

export interface PgResult {
  rows: Record<string, unknown>[];
  /** Rows returned, or changed by INSERT/UPDATE/DELETE (SQLite's `changes`). */
  rowCount: number;
}

export type PgResponse =
  | { id: number; ok: true; results: PgResult[]; connection: number }
  | {
      id: number;
      ok: false;
      error: SerializedPgError;
      /** Which of the statements failed (its index), when one did. */
      failedAt?: number;
      /** The connection they ran on, when it was reached: a transaction begun in them is still open there. */
      connection?: number;
    };

export const SIGNAL_WAITING = 0;
export const SIGNAL_ANSWERED = 1;
