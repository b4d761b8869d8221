import cron from 'node-cron';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import { isBusyError } from '../db/write.js';
import { isDatabaseUnavailable } from '../db/pg/errors.js';
import type { ServerModule } from '../modules.js';
import { scheduleAutoClosing } from './auto-closing.js';
import { runCleanup } from './cleanup.js';

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

/** The clean-up at 03:17 every night (a quiet hour, off the round minute other jobs favour). */
export function scheduleCleanup(deps: Pick<AppDeps, 'db' | 'writer' | 'clock'>, log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>): () => Promise<void> {
  const task = cron.schedule(
    '17 3 * * *',
    () => {
      try {
        const removed = runCleanup(deps, deps.clock.now());
        log.info({ removed }, 'clean-up done');
      } catch (error) {
        // A CLI command holding the write lock: tomorrow's pass removes the same rows.
        if (isBusyError(error) || isDatabaseUnavailable(error)) log.warn({}, 'clean-up skipped: the database was busy or unavailable');
        else log.error({ err: error }, 'clean-up failed');
      }
    },
    { name: 'cleanup', noOverlap: true },
  );
  return async () => {
    await task.stop();
    await task.destroy();
  };
}
