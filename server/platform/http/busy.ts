import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { PgQueryError } from '../../db/pg/errors.js';
import { DatabaseBusy, isBusyError, type Writer } from '../../db/write.js';

/** Pauses between attempts: short first (a CLI write lasts milliseconds), then at most 250 ms. */
const BACKOFF_MS = [2, 5, 10, 25, 50, 100, 250];

/**
 * PostgreSQL (head office) chose this transaction as a deadlock's victim or failed it for a
 * concurrent one's sake (40P01, 40001): it rolled the whole transaction back, and PostgreSQL's
 * advice is to run it again. Several central processes on one database can meet this; SQLite never does.
 */
const RERUN_SQLSTATES = new Set(['40P01', '40001']);
const mayRunAgain = (error: unknown): boolean => isBusyError(error) || (error instanceof PgQueryError && RERUN_SQLSTATES.has(error.code ?? ''));

/**
 * A request whose write finds the database locked by another process (DatabaseBusy, see
 * db/write.ts) is run again after a pause, without holding the event loop, until its write
 * goes through or `limitMs` has passed; then the DatabaseBusy goes to the error handler,
 * which answers 503 with Retry-After.
 *
 * Running a handler again is safe only when none of its work was committed: the writer's
 * commit count must not have moved since the attempt began. When it has (a handler that
 * wrote before the blocked write, or another request's write while this one awaited
 * something), the request is not retried and answers 503 at once. A PostgreSQL deadlock's
 * victim is run again the same way (mayRunAgain).
 */
export function registerBusyRetry(app: FastifyInstance, writer: Writer, limitMs: () => number): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    // The API's handlers are async; others (static files, the 404 catch-alls) never write.
    if (handler.constructor.name !== 'AsyncFunction') return;
    route.handler = async function retryingWhenBusy(request, reply) {
      const started = Date.now();
      for (let attempt = 0; ; attempt++) {
        const commitsBefore = writer.commits;
        try {
          return await handler.call(this, request, reply);
        } catch (error) {
          if (!mayRunAgain(error)) throw error;
          const pause = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
          const retriable = writer.commits === commitsBefore && !reply.sent;
          if (!retriable || Date.now() - started + pause > limitMs()) {
            throw error instanceof DatabaseBusy ? error : new DatabaseBusy(error);
          }
          await sleep(pause);
        }
      }
    };
  });
}
