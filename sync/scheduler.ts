import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../server/deps.js';
import { SyncAgent, SyncUnavailable, type AgentOptions } from './agent.js';

export interface SchedulerOptions {
  /** Pause between rounds while there is work but the last round emptied it. */
  intervalMs: number;
  /** Pause between rounds while a batch or page was full (draining). */
  busyMs: number;
  /** Longest pause when idle (doubles from intervalMs). */
  idleMaxMs: number;
  /** Longest pause after failures (doubles from intervalMs, with jitter). */
  backoffMaxMs: number;
  agent?: Partial<AgentOptions>;
  /** Jitter source (tests pass a fixed one). */
  random?: () => number;
}

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = { intervalMs: 2000, busyMs: 50, idleMaxMs: 30_000, backoffMaxMs: 5 * 60_000 };

/**
 * Exponential back-off with "equal jitter": half the capped delay plus a random part of the
 * other half, so stores that lost the line together do not come back in step.
 */
export function backoffDelay(failures: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const capped = Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
  return Math.round(capped / 2 + random() * (capped / 2));
}

/**
 * The one scheduler of a store's sync (issue 11 item 8): for each linked contract, push and pull
 * at once while batches come back full, every intervalMs while there is work, doubling up to
 * idleMaxMs when there is none, and backing off with jitter up to backoffMaxMs while central
 * cannot be reached. A local change (the writer's hook) brings the next round forward.
 * Returns the stop function, which waits for the round in flight.
 */
export function startSyncScheduler(deps: AppDeps, log: FastifyBaseLogger, options: Partial<SchedulerOptions> = fromEnv()): () => Promise<void> {
  const o = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
  const random = o.random ?? Math.random;
  const agent = new SyncAgent(deps, o.agent);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wakeAt = 0;
  const state = new Map<string, { failures: number; idle: number }>();

  const schedule = (delay: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    wakeAt = Date.now() + delay;
    timer = setTimeout(() => {
      timer = undefined;
      running = round().finally(() => (running = undefined));
    }, delay);
    timer.unref?.();
  };

  const round = async () => {
    const links = agent.links.all();
    // Unlinked, a round only looks for a link: `link` from another process (the CLI) is then
    // picked up within intervalMs instead of after the idle back-off.
    let next = links.length === 0 ? o.intervalMs : o.idleMaxMs;
    for (const link of links) {
      if (stopped) return;
      const s = state.get(link.contractId) ?? { failures: 0, idle: 0 };
      state.set(link.contractId, s);
      try {
        const r = await agent.syncOnce(link.contractId);
        if (s.failures > 0) log.info({ contractId: link.contractId }, 'sync: central reachable again');
        s.failures = 0;
        if (r.more) {
          s.idle = 0;
          next = Math.min(next, o.busyMs);
        } else {
          s.idle = r.pushed + r.pulled > 0 ? 0 : s.idle + 1;
          next = Math.min(next, Math.min(o.idleMaxMs, o.intervalMs * 2 ** Math.min(10, s.idle)));
        }
      } catch (error) {
        s.failures++;
        const delay = backoffDelay(s.failures, o.intervalMs, o.backoffMaxMs, random);
        if (error instanceof SyncUnavailable) log.warn({ contractId: link.contractId, failures: s.failures, retryInMs: delay }, `sync: ${error.message}`);
        else log.error({ err: error, contractId: link.contractId }, 'sync round failed');
        next = Math.min(next, delay);
      }
    }
    schedule(next);
  };

  // A new outbox row: run within intervalMs, unless a round is already due sooner or running,
  // or central was unreachable last time (the back-off holds).
  deps.writer.onChange(() => {
    if (stopped || running || !timer || [...state.values()].some((s) => s.failures > 0)) return;
    if (wakeAt - Date.now() > o.intervalMs) schedule(o.intervalMs);
  });

  schedule(0);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}

/**
 * Operators (and the process tests) may tune the schedule: POS_SYNC_INTERVAL_MS,
 * POS_SYNC_IDLE_MAX_MS, POS_SYNC_BACKOFF_MAX_MS, POS_SYNC_BATCH_ITEMS.
 */
export function fromEnv(env: NodeJS.ProcessEnv = process.env): Partial<SchedulerOptions> {
  const n = (name: string) => {
    const v = env[name];
    return v !== undefined && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined;
  };
  const o: Partial<SchedulerOptions> = {};
  const interval = n('POS_SYNC_INTERVAL_MS');
  const idle = n('POS_SYNC_IDLE_MAX_MS');
  const backoff = n('POS_SYNC_BACKOFF_MAX_MS');
  const batch = n('POS_SYNC_BATCH_ITEMS');
  if (interval) o.intervalMs = interval;
  if (idle) o.idleMaxMs = idle;
  if (backoff) o.backoffMaxMs = backoff;
  if (batch) o.agent = { batchItems: batch };
  return o;
}
