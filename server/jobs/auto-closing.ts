import cron from 'node-cron';
import type { AppDeps } from '../deps.js';
import { closingTimeReached } from '../domain/closing.js';
import { formatDate } from '../domain/time.js';
import { ProblemError } from '../http/problem.js';
import { DailyCloser } from '../resources/daily-summaries/closer.js';
import { DailySummaryRepo } from '../resources/daily-summaries/repo.js';

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
 * contract's zone) has passed today, and that was never closed for today (a released
 * automatic closing is not redone: the admin re-closes it or the next closing takes its
 * transactions), is closed for today under the rules of 4.15, without a request: cash values
 * come from the latest settlements, else they are "uncounted" (see closingCash). Each store
 * is closed in its own transaction; a failure is logged and the other stores go on.
 */
export function runAutoClosing(deps: JobDeps, now: Date, log: JobLog = silent): AutoClosingOutcome[] {
  const closer = new DailyCloser(deps.db, deps.writer, deps.ids, deps.clock);
  const summaries = new DailySummaryRepo(deps.db);
  const outcomes: AutoClosingOutcome[] = [];
  for (const store of summaries.storesClosingAutomatically()) {
    const at = now.getTime();
    if (!closingTimeReached(at, store.time_zone, store.closing_time)) continue;
    const sumDate = formatDate(at, store.time_zone);
    if (summaries.everClosed(store.contract_id, store.store_id, sumDate)) continue;
    const where = { contractId: store.contract_id, storeId: String(store.store_id), sumDate };
    try {
      closer.close({ contractId: store.contract_id, timeZone: store.time_zone }, { storeId: where.storeId, sumDate, cashInfo: null, method: 'auto' });
      log.info(where, 'automatic closing done');
      outcomes.push({ ...where, result: 'closed' });
    } catch (error) {
      if (error instanceof ProblemError) {
        log.warn({ ...where, detail: error.message }, 'automatic closing refused');
        outcomes.push({ ...where, result: 'refused', detail: error.message });
      } else {
        log.error({ ...where, err: error }, 'automatic closing failed');
        outcomes.push({ ...where, result: 'failed', detail: (error as Error).message });
      }
    }
  }
  return outcomes;
}

/** Runs the automatic closing at the start of every minute; resolves the returned stop function once stopped. */
export function scheduleAutoClosing(deps: JobDeps, log: JobLog = silent): () => Promise<void> {
  const task = cron.schedule(
    '* * * * *',
    () => {
      try {
        runAutoClosing(deps, deps.clock.now(), log);
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
