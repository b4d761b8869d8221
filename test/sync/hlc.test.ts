import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import { dialectOf } from '../../server/db/engine.js';
import { openDeps, type AppDeps } from '../../server/deps.js';
import { compareHlc, formatHlc, Hlc, parseHlc } from '../../sync/hlc.js';
import { testDatabase, type TestDatabase } from '../helpers/engine.js';

/** Central's clock on the test engine (its PostgreSQL database when POS_TEST_ENGINE=postgres). */
interface Opened {
  dir: string;
  database: TestDatabase;
  open(clock: FixedClock): AppDeps;
}
const places: Opened[] = [];
const opened: AppDeps[] = [];
const place = async (): Promise<Opened> => {
  const dir = mkdtempSync(join(tmpdir(), 'pos-hlc-'));
  const database = await testDatabase();
  const found: Opened = {
    dir,
    database,
    open: (clock) => openDeps({ file: join(dir, 'pos.sqlite'), ...(database.postgresUrl ? { postgresUrl: database.postgresUrl } : {}), role: 'central', clock }),
  };
  places.push(found);
  return found;
};
const open = async (clock: FixedClock) => {
  const at = await place();
  return { deps: at.open(clock), at };
};
/**
 * The step between one clock's counters: 1 on SQLite; on PostgreSQL the number of slots (each
 * process mints the counters of its slot; a clock alone on its database has slot 0).
 */
const stepOf = (deps: AppDeps) => dialectOf(deps.db).hlcSlots().count;

afterEach(async () => {
  for (const d of opened.splice(0)) d.db.close();
  for (const d of places.splice(0)) {
    await d.database.drop();
    rmSync(d.dir, { recursive: true, force: true });
  }
});

describe('hybrid logical clock', () => {
  it('formats and parses; the string form sorts in time order, ties by node', () => {
    const a = formatHlc({ wall: 1_700_000_000_000, counter: 2, node: 7 });
    expect(a).toBe('001700000000000-000002-007');
    expect(parseHlc(a)).toEqual({ wall: 1_700_000_000_000, counter: 2, node: 7 });
    const values = [
      { wall: 5, counter: 0, node: 9 },
      { wall: 10, counter: 0, node: 1 },
      { wall: 10, counter: 1, node: 0 },
      { wall: 10, counter: 1, node: 2 },
      { wall: 100, counter: 0, node: 0 },
    ].map(formatHlc);
    expect([...values].reverse().sort()).toEqual(values);
    expect(compareHlc(values[0]!, values[1]!)).toBeLessThan(0);
    expect(() => parseHlc('12-3')).toThrow(RangeError);
  });

  it('now() follows the wall clock and counts within one millisecond or when the clock goes back', async () => {
    const clock = new FixedClock(new Date(1000));
    const { deps } = await open(clock);
    opened.push(deps);
    const hlc = new Hlc(deps.db, clock, 3);
    const step = stepOf(deps);
    expect(hlc.now()).toBe(formatHlc({ wall: 1000, counter: 0, node: 3 }));
    expect(hlc.now()).toBe(formatHlc({ wall: 1000, counter: step, node: 3 }));
    clock.set(new Date(900)); // the wall clock steps back: the HLC does not
    expect(hlc.now()).toBe(formatHlc({ wall: 1000, counter: 2 * step, node: 3 }));
    clock.set(new Date(2000));
    expect(hlc.now()).toBe(formatHlc({ wall: 2000, counter: 0, node: 3 }));
  });

  it('receive() moves past a remote clock ahead of ours, and every value is later than the last', async () => {
    const clock = new FixedClock(new Date(1000));
    const { deps } = await open(clock);
    opened.push(deps);
    const hlc = new Hlc(deps.db, clock, 1);
    const local = hlc.now();
    const remote = formatHlc({ wall: 5000, counter: 4, node: 0 });
    const merged = hlc.receive(remote);
    // The remote's counter + 1, or this clock's next counter above it.
    expect(merged).toBe(formatHlc({ wall: 5000, counter: Math.ceil(5 / stepOf(deps)) * stepOf(deps), node: 1 }));
    expect(compareHlc(merged, remote)).toBeGreaterThan(0);
    expect(compareHlc(hlc.now(), merged)).toBeGreaterThan(0);
    expect(compareHlc(hlc.receive(local), merged)).toBeGreaterThan(0); // an older remote never moves it back
    // A remote clock days ahead is not followed.
    const wild = formatHlc({ wall: 1000 + 3 * 86_400_000, counter: 0, node: 0 });
    expect(parseHlc(hlc.receive(wild)).wall).toBe(5000);
  });

  it('persists its last value: a restart with a clock that went back continues after it', async () => {
    const clock = new FixedClock(new Date(50_000));
    const { deps, at } = await open(clock);
    const last = new Hlc(deps.db, clock, 2).now();
    deps.db.close();
    clock.set(new Date(10_000));
    const again = at.open(clock);
    opened.push(again);
    const next = new Hlc(again.db, clock, 2).now();
    expect(compareHlc(next, last)).toBeGreaterThan(0);
    expect(parseHlc(next)).toEqual({ wall: 50_000, counter: stepOf(again), node: 2 });
  });

  it('two clocks on one database (the server and a one-shot command) never issue a value behind the other', async () => {
    const clock = new FixedClock(new Date(7000));
    const { deps } = await open(clock);
    opened.push(deps);
    const server = new Hlc(deps.db, clock, 4);
    const command = new Hlc(deps.db, clock, 4);
    const a = server.now();
    const b = command.now();
    const c = server.now();
    expect([a, b, c]).toEqual([...new Set([a, b, c])].sort());
    expect(compareHlc(b, a)).toBeGreaterThan(0);
    expect(compareHlc(c, b)).toBeGreaterThan(0);
  });
});
