import cron from 'node-cron';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import { isBusyError } from '../db/write.js';
import { isDatabaseUnavailable } from '../db/pg/errors.js';
import type { ServerModule } from '../modules.js';
import { scheduleAutoClosing } from './auto-closing.js';
import { runNightlyCleanup } from './cleanup.js';

/**
 * Every schedule a serving instance runs, started and stopped in one place (issue 11 item 8):
 * automatic closings (a store's: closings are store-made records central receives by sync),
 * the modules' jobs (sync's: webhook deliveries and their retries, a store's push and pull to
 * central), and the nightly clean-up. The stop function waits for the work in flight.
 */
export function startSchedules(deps: AppDeps, log: FastifyBaseLogger, modules: readonly ServerModule[]): () => Promise<void> {
  const store = deps.config.role === 'store';
  const stops = [
    store ? scheduleAutoClosing(deps, log) : async () => {},
    ...modules.flatMap((m) => m.startJobs?.(deps, log) ?? []),
    scheduleCleanup(deps, log),
  ];
  return async () => {
    for (const stop of stops) await stop();
  };
}

/** While another process runs the night's clean-up, this one looks again after this pause, this many times (it may fail). */
export const CLEANUP_RECHECK_MS = 60_000;
export const CLEANUP_RECHECKS = 5;

/**
 * The clean-up at 03:17 every night (a quiet hour, off the round minute other jobs favour), once
 * a night across the processes sharing the database (runNightlyCleanup): the others skip it.
 */
export function scheduleCleanup(
  deps: Pick<AppDeps, 'db' | 'writer' | 'clock'>,
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
  options: { recheckMs?: number; rechecks?: number } = {},
): () => Promise<void> {
  const recheckMs = options.recheckMs ?? CLEANUP_RECHECK_MS;
  let recheck: NodeJS.Timeout | undefined;
  const run = (now: Date, rechecks: number) => {
    recheck = undefined;
    try {
      const outcome = runNightlyCleanup(deps, now);
      if ('ran' in outcome) log.info({ removed: outcome.ran }, 'clean-up done');
      else if (outcome.skipped === 'done') log.info({}, 'clean-up of this night already done by another process');
      else if (rechecks > 0) recheck = setTimeout(() => run(now, rechecks - 1), recheckMs).unref();
      else log.warn({}, 'clean-up skipped: another process was still running it');
    } catch (error) {
      // A CLI command holding the write lock: tomorrow's pass removes the same rows.
      if (isBusyError(error) || isDatabaseUnavailable(error)) log.warn({}, 'clean-up skipped: the database was busy or unavailable');
      else log.error({ err: error }, 'clean-up failed');
    }
  };
  // The night is the one it fired in, also when a recheck runs later.
  const task = cron.schedule('17 3 * * *', () => run(deps.clock.now(), options.rechecks ?? CLEANUP_RECHECKS), { name: 'cleanup', noOverlap: true });
  return async () => {
    clearTimeout(recheck);
    await task.stop();
    await task.destroy();
  };
}
