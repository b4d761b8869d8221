import cron from 'node-cron';
import type { AppDeps } from '../deps.js';
import { autoClosingDate, autoClosingDates } from '../domain/auto-closing-calendar.js';
import { isDatabaseUnavailable } from '../db/pg/errors.js';
import { isBusyError } from '../db/write.js';
import { DomainError } from '../domain/errors.js';
import { DailyCloser } from '../sales/closing/closer.js';
import { DailySummaryRepo } from '../sales/closing/closing-repo.js';

/** What the job logs through (Fastify's and pino's loggers fit). */
export interface JobLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

const silent: JobLog = { info() {}, warn() {}, error() {} };

export interface AutoClosingOutcome {
  contractId: string;
  storeId: string;
  sumDate: string;
  /** closed, or refused by a rule of 4.15 (e.g. a warehouse set to close automatically), or failed unexpectedly. */
  result: 'closed' | 'refused' | 'failed';
  detail?: string;
}

type JobDeps = Pick<AppDeps, 'db' | 'writer' | 'ids' | 'clock'>;

/**
 * Automatic closing: every store with closingMethod 1 whose closingTime (HH:MM in its
 * contract's zone) has been reached today is closed for its target date (autoClosingDate: the
 * previous date for a closing time from 00:00 to 05:59, else today), after catching up the
 * dates it missed (autoClosingDates: from the day after its latest closing, at most
 * CATCH_UP_DAYS back, oldest first; a released closing is not redone: the admin re-closes it
 * or the next closing takes its transactions). Each date closes under the rules of 4.15 as
 * POST /daily_summaries does, without a request: cash values come from the latest
 * settlements, else they are "uncounted" (see closingCash). Each date is closed in its own
 * transaction; a store stops at its first refusal or failure, which is logged, and the other
 * stores go on. With `memo` (kept by the scheduler across runs) a refusal is warned once per
 * contract, store and date; it is still retried every run, so fixing its cause closes it.
 */
export function runAutoClosing(deps: JobDeps, now: Date, log: JobLog = silent, memo?: Set<string>): AutoClosingOutcome[] {
  const closer = new DailyCloser(deps.db, deps.writer, deps.ids, deps.clock);
  const summaries = new DailySummaryRepo(deps.db);
  const outcomes: AutoClosingOutcome[] = [];
  for (const store of summaries.storesClosingAutomatically()) {
    const target = autoClosingDate(now.getTime(), store.time_zone, store.closing_time);
    if (target === null) continue;
    const contract = { contractId: store.contract_id, timeZone: store.time_zone };
    for (const sumDate of autoClosingDates(target, summaries.latestClosedDate(store.contract_id, store.store_id))) {
      const where = { contractId: store.contract_id, storeId: String(store.store_id), sumDate };
      const key = `${where.contractId}|${where.storeId}|${sumDate}`;
      try {
        closer.close(contract, { storeId: where.storeId, sumDate, cashInfo: null, method: 'auto' });
        log.info(where, 'automatic closing done');
        outcomes.push({ ...where, result: 'closed' });
        memo?.delete(key);
      } catch (error) {
        if (error instanceof DomainError) {
          if (!memo?.has(key)) log.warn({ ...where, detail: error.message }, 'automatic closing refused');
          memo?.add(key);
          outcomes.push({ ...where, result: 'refused', detail: error.message });
        } else if (isBusyError(error) || (isDatabaseUnavailable(error) && error.reason === 'timeout')) {
          // A CLI command held the write lock (on PostgreSQL: a lock wait ran out): the next minute's run closes it.
          log.warn(where, 'automatic closing postponed: the database was busy');
          outcomes.push({ ...where, result: 'failed', detail: 'database busy' });
        } else if (isDatabaseUnavailable(error)) {
          // Central's PostgreSQL is gone for now: nothing was committed, the next minute's run closes it.
          log.warn(where, 'automatic closing postponed: the database is unavailable');
          outcomes.push({ ...where, result: 'failed', detail: 'database unavailable' });
        } else {
          log.error({ ...where, err: error }, 'automatic closing failed');
          outcomes.push({ ...where, result: 'failed', detail: (error as Error).message });
        }
        break;
      }
    }
  }
  return outcomes;
}

/** Runs the automatic closing at the start of every minute (remembering refusals so each is warned once); resolves the returned stop function once stopped. */
export function scheduleAutoClosing(deps: JobDeps, log: JobLog = silent): () => Promise<void> {
  const refused = new Set<string>();
  const task = cron.schedule(
    '* * * * *',
    () => {
      try {
        runAutoClosing(deps, deps.clock.now(), log, refused);
      } catch (error) {
        log.error({ err: error }, 'automatic closing could not run');
      }
    },
    { name: 'auto-closing', noOverlap: true },
  );
  return async () => {
    await task.stop();
    await task.destroy();
  };
}
