import cron from 'node-cron';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import { postgresDialect } from '../../server/db/dialect/query-postgres.js';
import { isBusyError } from '../../server/db/write.js';
import type { AppDeps } from '../../server/deps.js';
import { runNightlyCleanup } from '../../server/jobs/cleanup.js';
import { claimJobSlot, daySlot } from '../../server/jobs/job-runs.js';
import { scheduleCleanup } from '../../server/jobs/schedules.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import { onPostgres } from '../helpers/engine.js';
import { centralsOnOneDatabase, type CentralsOnOneDatabase } from '../helpers/one-database.js';

/**
 * Issue 24: a scheduled job runs once across the central processes sharing one database. Two
 * processes' deps (each its own connection) on one database fire the nightly clean-up for the
 * same night: one runs it, the other skips it; the next night runs again. Fired in the same
 * instant (the other's transaction still open), the second neither waits nor runs it: on
 * PostgreSQL it finds the job running and looks again later (done by then, or run by itself if
 * the first failed); on SQLite the first's write lock refuses it (busy, as before).
 */

const DAY = 24 * 3600_000;
const NIGHT = Date.parse('2026-11-27T03:17:00Z');
const CONTRACT = 'jobs-contract';

interface Logged {
  level: 'info' | 'warn' | 'error';
  message: string;
}

let centrals: CentralsOnOneDatabase;
let clock: FixedClock;
let one: AppDeps;
let two: AppDeps;

beforeEach(async () => {
  centrals = await centralsOnOneDatabase('pos-jobs-once-');
  clock = new FixedClock(new Date(NIGHT));
  [one, two] = [centrals.open({ clock }), centrals.open({ clock })];
  new ContractRepo(one.db, one.writer, clock).create({ contractId: CONTRACT, name: 'Jobs', plan: 'retail_business', timeZone: 'Asia/Tokyo' });
});

afterEach(() => centrals.close());

/** Sync conflicts older than their 180 days: what a clean-up removes (counted once whoever runs it). */
function oldConflicts(n: number, at = NIGHT): void {
  const insert = one.db.prepare("INSERT INTO sync_conflicts (contract_id, entity, entity_id, winner_hlc, loser_hlc, at) VALUES (?, 'category', ?, 'b', 'a', ?)");
  one.writer.write(() => {
    for (let i = 0; i < n; i++) insert.run(CONTRACT, `${at}-${i}`, at - 181 * DAY);
  });
}
const conflictsLeft = () => (one.db.prepare('SELECT count(*) AS n FROM sync_conflicts').get() as { n: number }).n;
const slots = () => one.db.prepare('SELECT job, slot FROM job_runs ORDER BY slot').all();

describe('the nightly clean-up on two processes sharing one database', () => {
  it('both fire for the same night: one runs it, the other finds it done; the next night runs again', () => {
    oldConflicts(3);
    const first = runNightlyCleanup(two, new Date(NIGHT));
    expect(first).toEqual({ ran: { webhookDeliveries: 0, webhookEvents: 0, deadLetters: 0, syncConflicts: 3, exportFiles: 0 } });
    oldConflicts(2);
    // Seconds later, the other process (and the first again): skipped, the new rows stay for tomorrow.
    expect(runNightlyCleanup(one, new Date(NIGHT + 5_000))).toEqual({ skipped: 'done' });
    expect(runNightlyCleanup(two, new Date(NIGHT + 5_000))).toEqual({ skipped: 'done' });
    expect(conflictsLeft()).toBe(2);
    expect(slots()).toEqual([{ job: 'cleanup', slot: '2026-11-27' }]);
    // The next night, whichever comes first runs it.
    expect(runNightlyCleanup(one, new Date(NIGHT + DAY))).toMatchObject({ ran: { syncConflicts: 2 } });
    expect(runNightlyCleanup(two, new Date(NIGHT + DAY))).toEqual({ skipped: 'done' });
    // Old slots go with a later clean-up.
    expect(runNightlyCleanup(two, new Date(NIGHT + 40 * DAY))).toMatchObject({ ran: {} });
    expect(slots()).toEqual([{ job: 'cleanup', slot: daySlot(new Date(NIGHT + 40 * DAY)) }]);
  });

  it('fired in the same instant, while the other’s clean-up transaction is open: not run twice, and not waited for', () => {
    oldConflicts(3);
    const during = one.writer.write(() => {
      expect(claimJobSlot(one, 'cleanup', daySlot(new Date(NIGHT)), NIGHT)).toBe('run');
      // The second process fires now, on its own connection.
      try {
        return runNightlyCleanup(two, new Date(NIGHT));
      } catch (error) {
        return error;
      }
    });
    if (onPostgres) expect(during).toEqual({ skipped: 'running' });
    else expect(isBusyError(during)).toBe(true);
    // The first committed: the night is done for both.
    expect(runNightlyCleanup(two, new Date(NIGHT))).toEqual({ skipped: 'done' });
    expect(conflictsLeft()).toBe(3);
  });

  it('a clean-up that failed (rolled back) leaves the night to the next one that fires', () => {
    oldConflicts(1);
    expect(() =>
      one.writer.write(() => {
        expect(claimJobSlot(one, 'cleanup', daySlot(new Date(NIGHT)), NIGHT)).toBe('run');
        throw new Error('died mid clean-up');
      }),
    ).toThrow('died mid clean-up');
    expect(runNightlyCleanup(two, new Date(NIGHT))).toMatchObject({ ran: { syncConflicts: 1 } });
    expect(runNightlyCleanup(one, new Date(NIGHT))).toEqual({ skipped: 'done' });
  });
});

describe('the clean-up schedule of two processes', () => {
  /** The schedule's log, kept (the job logs only through info, warn and error with details and a message). */
  const logOf = (into: Logged[]) =>
    ({
      info: (_: object, message: string) => void into.push({ level: 'info', message }),
      warn: (_: object, message: string) => void into.push({ level: 'warn', message }),
      error: (_: object, message: string) => void into.push({ level: 'error', message }),
    }) as unknown as Parameters<typeof scheduleCleanup>[1];
  const tasksNamed = (name: string) => [...cron.getTasks().values()].filter((task) => task.name === name);
  /** Polls (bounded) until the logs hold `count` entries. */
  const logged = async (logs: Logged[], count: number) => {
    for (let i = 0; i < 200 && logs.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    return logs;
  };

  it('both schedules fire at once: one process cleans up, the other logs that it was done', async () => {
    oldConflicts(2);
    const logs: [Logged[], Logged[]] = [[], []];
    const before = new Set(tasksNamed('cleanup'));
    const stops = [scheduleCleanup(one, logOf(logs[0])), scheduleCleanup(two, logOf(logs[1]))];
    try {
      const fired = tasksNamed('cleanup').filter((task) => !before.has(task));
      expect(fired).toHaveLength(2);
      await Promise.all(fired.map((task) => task.execute()));
      const all = [...(await logged(logs[0], 1)), ...(await logged(logs[1], 1))].map((l) => `${l.level}: ${l.message}`).sort();
      expect(all).toEqual(['info: clean-up done', 'info: clean-up of this night already done by another process']);
      expect(conflictsLeft()).toBe(0);
    } finally {
      for (const stop of stops) await stop();
    }
  });

  describe.runIf(onPostgres)('while another process’s clean-up holds the job (PostgreSQL)', () => {
    let holder: pg.Client;
    beforeEach(async () => {
      holder = new pg.Client({ connectionString: centrals.database.postgresUrl });
      await holder.connect();
    });
    afterEach(() => holder.end());

    /** Another process's clean-up in the middle of its transaction: the job's lock and the night's slot, not committed. */
    const holdJob = async () => {
      await holder.query('BEGIN');
      expect((await holder.query(postgresDialect.tryLockOf('job_cleanup'))).rows).toEqual([{ locked: 1 }]);
      await holder.query("INSERT INTO job_runs (job, slot, started_at) VALUES ('cleanup', $1, $2)", [daySlot(new Date(NIGHT)), NIGHT]);
    };

    for (const [ending, expected] of [
      ['COMMIT', 'info: clean-up of this night already done by another process'],
      ['ROLLBACK', 'info: clean-up done'],
    ] as const) {
      it(`the schedule finds it running, looks again, and then ${ending === 'COMMIT' ? 'finds it done' : 'runs it (the other failed)'}`, async () => {
        oldConflicts(1);
        await holdJob();
        const logs: Logged[] = [];
        const before = new Set(tasksNamed('cleanup'));
        const stop = scheduleCleanup(two, logOf(logs), { recheckMs: 50, rechecks: 100 });
        try {
          const [task] = tasksNamed('cleanup').filter((t) => !before.has(t));
          await task!.execute();
          // It fired, found the job held, and logged nothing yet: it looks again later.
          expect(logs).toEqual([]);
          await holder.query(ending);
          expect((await logged(logs, 1)).map((l) => `${l.level}: ${l.message}`)).toEqual([expected]);
          expect(conflictsLeft()).toBe(ending === 'COMMIT' ? 1 : 0);
        } finally {
          await stop();
        }
      });
    }
  });
});
