import Database from 'better-sqlite3';
import cron from 'node-cron';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAutoClosing, scheduleAutoClosing, type JobLog } from '../../server/jobs/auto-closing.js';
import { ContractRepo } from '../../server/platform/contracts/repo.js';
import type { DailySummary } from '../../server/sales/closing/closing-schema.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/engine.js';
import { startPostgres } from '../helpers/postgres.js';
import { closingState, makeStore, makeTerminal, ok, sale, settle, startAt } from './closing-fixtures.js';

const jst = (date: string, time: string) => `${date}T${time}+09:00`;
const DAY = '2026-11-22';

let base: TestApp;
let t: TestApp;
let lines: string[];
const log: JobLog = {
  info: (d, m) => lines.push(`info ${m} ${JSON.stringify(d)}`),
  warn: (d, m) => lines.push(`warn ${m} ${JSON.stringify(d)}`),
  error: (d, m) => lines.push(`error ${m} ${JSON.stringify(d)}`),
};
/** Runs the job at `when` (the clock shows the same time, as under the scheduler). */
const runAt = (when: string) => {
  t.clock.set(when);
  return runAutoClosing(t.deps, new Date(when), log);
};
const summary = async (storeId: string, date = DAY): Promise<DailySummary> => ok(t, 'GET', `/daily_summaries/${storeId}/${date}`);

beforeEach(async () => {
  base = await makeTestApp();
  t = await startAt(base, jst(DAY, '21:30:00'));
  lines = [];
});
afterEach(() => base.close());

describe('runAutoClosing', () => {
  it('closes each automatic store once its closing time has passed today; refusals are logged and the others go on', async () => {
    const auto = await makeStore(t, { closingMethod: '1', closingTime: '22:00' }, 'Auto');
    const manual = await makeStore(t, {}, 'Manual');
    const warehouse = await makeStore(t, { closingMethod: '1', closingTime: '21:30', division: '2' }, 'Warehouse');
    const term = await makeTerminal(t, auto);
    const sold = await sale(t, { storeId: auto, terminalId: term, at: jst(DAY, '20:00:00'), amount: '3000' });
    await settle(t, { storeId: auto, terminalId: term });
    const manualTerm = await makeTerminal(t, manual);
    const manualSale = await sale(t, { storeId: manual, terminalId: manualTerm, at: jst(DAY, '20:00:00'), amount: '100' });
    await settle(t, { storeId: manual, terminalId: manualTerm });

    const refusal = { contractId: t.contractId, storeId: warehouse, sumDate: DAY, result: 'refused', detail: `[storeId] store ${warehouse} is a warehouse and has no daily closing` };
    expect(runAt(jst(DAY, '21:59:59'))).toEqual([refusal]);
    expect(await closingState(t, sold)).toEqual({ sumDivision: '1', sumDate: null });

    expect(runAt(jst(DAY, '22:00:00'))).toEqual([{ contractId: t.contractId, storeId: auto, sumDate: DAY, result: 'closed' }, refusal]);
    expect(await closingState(t, sold)).toEqual({ sumDivision: '2', sumDate: DAY });
    expect(await closingState(t, manualSale)).toEqual({ sumDivision: '1', sumDate: null });
    expect(await summary(auto)).toMatchObject({ closingMethod: 'auto', cashSource: 'uncounted', cashInfo: null, terminalIdList: [term], closedDateTime: jst(DAY, '22:00:00') });
    expect(lines).toContain(`info automatic closing done ${JSON.stringify({ contractId: t.contractId, storeId: auto, sumDate: DAY })}`);
    expect(lines.filter((l) => l.startsWith('warn automatic closing refused')).length).toBe(2);

    // already closed today: not again
    expect(runAt(jst(DAY, '22:05:00'))).toEqual([refusal]);
  });

  it('without a count: the previous carry-over is the preparation cash and the cash is taken as it should be', async () => {
    const auto = await makeStore(t, { closingMethod: '1', closingTime: '22:00' });
    const term = await makeTerminal(t, auto);
    t = await startAt(base, jst('2026-11-21', '21:00:00'));
    await sale(t, { storeId: auto, terminalId: term, at: jst('2026-11-21', '12:00:00'), amount: '3000' });
    await settle(t, { storeId: auto, terminalId: term });
    expect(runAt(jst('2026-11-21', '23:00:00'))[0]?.result).toBe('closed');

    t = await startAt(base, jst(DAY, '21:30:00'));
    await sale(t, { storeId: auto, terminalId: term, at: jst(DAY, '12:00:00'), amount: '2000' });
    await settle(t, { storeId: auto, terminalId: term, depositedBankMoney: '1000' });
    expect(runAt(jst(DAY, '22:00:00'))[0]?.result).toBe('closed');

    expect(await summary(auto, '2026-11-21')).toMatchObject({ preparationCash: '0', computedCashBalance: '3000', realCashBalance: '3000', saving: '0', carryOverReserve: '3000', overShort: '0' });
    // preparation 3000 (yesterday's carry-over) + 2000; 1000 banked → 4000 left
    expect(await summary(auto)).toMatchObject({
      preparationCash: '3000',
      computedCashBalance: '5000',
      realCashBalance: '4000',
      depositedBankMoney: '1000',
      saving: '0',
      carryOverReserve: '4000',
      overShort: '0',
    });
  });

  it('takes the cash values from the latest settlements when cash is input at settlement', async () => {
    const auto = await makeStore(t, { closingMethod: '1', closingTime: '22:00', cashInputAtSettlement: '1', bankDepositAutoInput: '1', bankDepositAutoInputAmount: '10000' });
    const term = await makeTerminal(t, auto);
    await sale(t, { storeId: auto, terminalId: term, at: jst(DAY, '20:00:00'), amount: '5000' });
    await settle(t, { storeId: auto, terminalId: term, cashInfo: { tenThousandYen: '1', oneThousandYen: '4', oneHundredYen: '10' } });
    runAt(jst(DAY, '22:00:00'));
    // real 15000; preparation = carry-over = 10000; computed 15000
    expect(await summary(auto)).toMatchObject({ cashSource: 'settlement', realCashBalance: '15000', saving: '5000', carryOverReserve: '10000', overShort: '0' });
  });

  it('does not redo a released automatic closing', async () => {
    const auto = await makeStore(t, { closingMethod: '1', closingTime: '22:00' });
    runAt(jst(DAY, '22:00:00'));
    await ok(t, 'POST', `/daily_summaries/${auto}/${DAY}/release`);
    expect(runAt(jst(DAY, '22:01:00'))).toEqual([]);
  });

  it('reads closing times in each contract\'s zone', async () => {
    new ContractRepo(t.deps.db, t.deps.writer, t.clock).create({ contractId: 'utc', name: 'UTC shop', plan: 'standard', timeZone: 'UTC' });
    const token = await t.tokenFor({ contractId: 'utc' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/utc/pos/stores',
      headers: { authorization: `Bearer ${token}` },
      payload: { storeName: 'London', closingMethod: '1', closingTime: '22:00' },
    });
    const london = res.json().storeId as string;
    const tokyo = await makeStore(t, { closingMethod: '1', closingTime: '22:00' });

    expect(runAt('2026-11-22T13:00:00Z')).toEqual([{ contractId: t.contractId, storeId: tokyo, sumDate: DAY, result: 'closed' }]);
    expect(runAt('2026-11-22T22:00:00Z')).toEqual([{ contractId: 'utc', storeId: london, sumDate: DAY, result: 'closed' }]);
  });
});

/**
 * Another program holding the lock the closing's write needs; the returned function lets it go.
 * SQLite: a second connection's write lock on the file (the server waits for no lock).
 * PostgreSQL: a second connection's EXCLUSIVE lock on daily_summaries (reads go on, the
 * closing's insert waits out the connection's lock_timeout).
 */
async function holdWriteLock(): Promise<() => Promise<void>> {
  if (!onPostgres) {
    const other = new Database(t.deps.db.name);
    t.deps.db.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    return async () => {
      other.exec('ROLLBACK');
      other.close();
    };
  }
  const database = t.deps.db.prepare('SELECT current_database() AS name').pluck().get() as string;
  const other = new pg.Client({ connectionString: (await startPostgres()).url(database) });
  await other.connect();
  await other.query('BEGIN');
  await other.query('LOCK TABLE daily_summaries IN EXCLUSIVE MODE');
  return async () => {
    await other.query('ROLLBACK');
    await other.end();
  };
}

describe('a busy database', () => {
  it('postpones the closing with a warning (the next minute retries), not an error', async () => {
    const auto = await makeStore(t, { closingMethod: '1', closingTime: '21:00' }, 'Auto');
    // Another process (a CLI command) holds the write lock.
    const release = await holdWriteLock();
    try {
      expect(runAt(jst(DAY, '21:30:00'))).toEqual([{ contractId: t.contractId, storeId: auto, sumDate: DAY, result: 'failed', detail: 'database busy' }]);
    } finally {
      await release();
    }
    expect(lines).toEqual([`warn automatic closing postponed: the database was busy {"contractId":"${t.contractId}","storeId":"${auto}","sumDate":"${DAY}"}`]);
    expect(runAt(jst(DAY, '21:31:00'))).toMatchObject([{ result: 'closed' }]);
  });
});

describe('scheduleAutoClosing', () => {
  it('schedules a task every minute and stops cleanly', async () => {
    const before = [...cron.getTasks().values()].filter((task) => task.name === 'auto-closing').length;
    const stop = scheduleAutoClosing(t.deps, log);
    const tasks = [...cron.getTasks().values()].filter((task) => task.name === 'auto-closing');
    expect(tasks.length).toBe(before + 1);
    expect(tasks.at(-1)!.getPattern()).toBe('* * * * *');
    await stop();
    expect([...cron.getTasks().values()].filter((task) => task.name === 'auto-closing').length).toBe(before);
    expect(lines).toEqual([]);
  });
});

describe('automatic closing dates', () => {
  it('a closing time from 00:00 to 05:59 closes the business day that just ended', async () => {
    const auto = await makeStore(t, { closingMethod: '1', closingTime: '00:00' });
    const term = await makeTerminal(t, auto);
    const sold = await sale(t, { storeId: auto, terminalId: term, at: jst(DAY, '20:00:00'), amount: '100' });
    await settle(t, { storeId: auto, terminalId: term });
    expect(runAt(jst('2026-11-23', '00:00:00'))).toEqual([{ contractId: t.contractId, storeId: auto, sumDate: DAY, result: 'closed' }]);
    t = await startAt(base, jst('2026-11-23', '00:00:00'));
    expect(await closingState(t, sold)).toEqual({ sumDivision: '2', sumDate: DAY });
    expect(runAt(jst('2026-11-23', '23:59:00'))).toEqual([]);
  });

  it('catches up the dates missed while the server was down, oldest first, each with its own sales', async () => {
    const auto = await makeStore(t, { closingMethod: '1', closingTime: '22:00' });
    const term = await makeTerminal(t, auto);
    t = await startAt(base, jst('2026-11-20', '21:00:00'));
    await sale(t, { storeId: auto, terminalId: term, at: jst('2026-11-20', '12:00:00'), amount: '100' });
    await settle(t, { storeId: auto, terminalId: term });
    expect(runAt(jst('2026-11-20', '22:00:00'))[0]?.result).toBe('closed');
    t = await startAt(base, jst('2026-11-21', '20:00:00'));
    const first = await sale(t, { storeId: auto, terminalId: term, at: jst('2026-11-21', '12:00:00'), amount: '100' });
    await settle(t, { storeId: auto, terminalId: term });
    // down from 21:00 on the 21st to 08:00 on the 23rd; nothing before the closing time
    expect(runAt(jst('2026-11-23', '08:00:00'))).toEqual([]);
    const outcome = (sumDate: string) => ({ contractId: t.contractId, storeId: auto, sumDate, result: 'closed' });
    expect(runAt(jst('2026-11-23', '22:00:00'))).toEqual([outcome('2026-11-21'), outcome(DAY), outcome('2026-11-23')]);
    t = await startAt(base, jst('2026-11-23', '22:00:00'));
    expect(await closingState(t, first)).toEqual({ sumDivision: '2', sumDate: '2026-11-21' });
    expect((await summary(auto, DAY)).transactionCount).toBe('0');
  });

  it('goes back at most 7 days; a store never closed closes only the target date', async () => {
    const auto = await makeStore(t, { closingMethod: '1', closingTime: '22:00' });
    t = await startAt(base, jst('2026-11-01', '22:00:00'));
    expect(runAt(jst('2026-11-01', '22:00:00')).map((o) => o.sumDate)).toEqual(['2026-11-01']);
    expect(runAt(jst(DAY, '22:00:00')).map((o) => o.sumDate)).toEqual([
      '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', DAY,
    ]);
  });

  it('with the scheduler\'s memo a refusal is warned once per store and date, and still retried', async () => {
    const warehouse = await makeStore(t, { closingMethod: '1', closingTime: '21:30', division: '2' });
    const memo = new Set<string>();
    const refusal = { contractId: t.contractId, storeId: warehouse, sumDate: DAY, result: 'refused', detail: `[storeId] store ${warehouse} is a warehouse and has no daily closing` };
    for (const time of ['21:30:00', '21:31:00', '21:32:00']) expect(runAutoClosing(t.deps, new Date(jst(DAY, time)), log, memo)).toEqual([refusal]);
    expect(lines.filter((l) => l.startsWith('warn')).length).toBe(1);
    runAutoClosing(t.deps, new Date(jst('2026-11-23', '21:30:00')), log, memo);
    expect(lines.filter((l) => l.startsWith('warn')).length).toBe(2);
  });
});
