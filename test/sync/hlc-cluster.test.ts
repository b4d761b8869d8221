import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import { openDeps, type AppDeps } from '../../server/deps.js';
import { syncContext } from '../../sync/context.js';
import { parseHlc } from '../../sync/hlc.js';
import { onPostgres, testDatabase, type TestDatabase } from '../helpers/engine.js';
import { ROOT } from '../helpers/serve-child.js';

/**
 * Hybrid-clock values and ids minted by several central processes on one PostgreSQL database
 * (issue 24) never collide, and each process's values increase: two connections in this process
 * interleaved inside each other's open transactions (one wall-clock millisecond for both), then
 * two child processes (the compiled server) minting at once, each in its own slot and both forced
 * into the same slot.
 */

const dirs: string[] = [];
const databases: TestDatabase[] = [];
const opened: AppDeps[] = [];
afterEach(async () => {
  for (const d of opened.splice(0)) d.db.close();
  for (const d of databases.splice(0)) await d.drop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const database = async () => {
  const db = await testDatabase();
  databases.push(db);
  return db.postgresUrl!;
};
const centralOn = (url: string, clock: FixedClock) => {
  const dir = mkdtempSync(join(tmpdir(), 'pos-hlc-cluster-'));
  dirs.push(dir);
  const deps = openDeps({ file: join(dir, 'pos.sqlite'), postgresUrl: url, role: 'central', node: 0, clock });
  opened.push(deps);
  return deps;
};

const increasing = (values: string[]) => values.every((v, i) => i === 0 || v > values[i - 1]!);
const remainders = (values: string[]) => new Set(values.map((v) => parseHlc(v).counter % 100));

describe.skipIf(!onPostgres)('clock values and ids of several central processes on one database', () => {
  it('two connections minting inside each other’s open transactions, in one millisecond: all distinct, neither waits on the other', async () => {
    const url = await database();
    const clock = new FixedClock(new Date('2026-11-27T10:00:00Z'));
    const a = centralOn(url, clock);
    const b = centralOn(url, clock);
    const [ha, hb] = [syncContext(a).hlc, syncContext(b).hlc];
    const fromA: string[] = [];
    const fromB: string[] = [];
    const idsA: string[] = [];
    const idsB: string[] = [];
    a.writer.write(() => {
      for (let i = 0; i < 100; i++) {
        fromA.push(ha.now());
        idsA.push(a.ids.next('categories'));
        // The other process's transaction commits while this one stays open (it saved its clock
        // row and holds it): the other neither waits for it nor mints what it minted.
        b.writer.write(() => {
          fromB.push(hb.now());
          fromB.push(hb.receive(fromA[fromA.length - 1]!));
          idsB.push(b.ids.next('stores'));
        });
        fromA.push(ha.receive(fromB[fromB.length - 1]!));
      }
    });
    const all = [...fromA, ...fromB];
    expect(new Set(all).size).toBe(all.length);
    expect(increasing(fromA)).toBe(true);
    expect(increasing(fromB)).toBe(true);
    // One millisecond: the counters tell the processes apart (each its slot's remainder).
    expect(new Set(all.map((v) => parseHlc(v).wall)).size).toBeLessThan(3);
    const [ra, rb] = [remainders(fromA), remainders(fromB)];
    expect(ra.size).toBe(1);
    expect(rb.size).toBe(1);
    expect([...ra][0]).not.toBe([...rb][0]);
    // After both committed, each one's next value is later than everything either minted.
    const last = [...all].sort().at(-1)!;
    expect(ha.now() > last && hb.now() > last).toBe(true);
  });

  it('two processes minting at once, each in its own slot: every value and id distinct, each process’s values increasing', async () => {
    const url = await database();
    const [one, two] = await mintInChildren(url, 400, false);
    const all = [...one.values, ...two.values];
    expect(all.length).toBe(4 * 400);
    expect(new Set(all).size).toBe(all.length);
    expect(increasing(one.values)).toBe(true);
    expect(increasing(two.values)).toBe(true);
    expect(remainders(one.values).size).toBe(1);
    expect([...remainders(one.values)][0]).not.toBe([...remainders(two.values)][0]);
    const ids = [...one.ids, ...two.ids];
    expect(new Set(ids).size).toBe(800);
  }, 120_000);

  it('two processes forced into one slot (a claim lost with its connection) still never keep the same value: each save waits for the other’s and mints again', async () => {
    const url = await database();
    const [one, two] = await mintInChildren(url, 300, true);
    const all = [...one.values, ...two.values];
    expect(remainders(one.values)).toEqual(new Set([0]));
    expect(remainders(two.values)).toEqual(new Set([0]));
    expect(new Set(all).size).toBe(all.length);
    expect(increasing(one.values)).toBe(true);
    expect(increasing(two.values)).toBe(true);
  }, 120_000);
});

interface Minted {
  values: string[];
  ids: string[];
}

/**
 * Two child processes of the compiled server (dist/, built by the run's set-up) on the database:
 * each opens it as central, claims its clock's slot (or takes slot 0 when `sameSlot`), says it is
 * ready and, once both are, mints `n` transactions of a value, a value merged from its own last
 * (as a received one) and an id; it prints what it minted.
 */
async function mintInChildren(url: string, n: number, sameSlot: boolean): Promise<[Minted, Minted]> {
  const script = (dir: string) => `
    import { join } from 'node:path';
    const { openDeps } = await import(${JSON.stringify(join(ROOT, 'dist/server/deps.js'))});
    const { syncContext } = await import(${JSON.stringify(join(ROOT, 'dist/sync/context.js'))});
    const deps = openDeps({ file: join(${JSON.stringify(dir)}, 'pos.sqlite'), postgresUrl: ${JSON.stringify(url)}, role: 'central', node: 0 });
    const hlc = syncContext(deps).hlc;
    if (${sameSlot}) hlc.slot = 0;
    console.log('ready');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    const values = [];
    const ids = [];
    for (let i = 0; i < ${n}; i++) {
      deps.writer.write(() => {
        values.push(hlc.now());
        values.push(hlc.receive(values[values.length - 1]));
        ids.push(deps.ids.next('categories'));
      });
    }
    deps.db.close();
    console.log(JSON.stringify({ values, ids }));
    process.exit(0);
  `;
  const children = [0, 1].map(() => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-hlc-child-'));
    dirs.push(dir);
    const child = spawn(process.execPath, ['--input-type=module', '-e', script(dir)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const exited = new Promise<Minted>((resolve, reject) =>
      child.on('exit', (code) => {
        clearTimeout(timer);
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (code === 0 && line) resolve(JSON.parse(line) as Minted);
        else reject(new Error(`minting child ended ${code}: ${out}`));
      }),
    );
    exited.catch(() => {});
    const ready = (async () => {
      for (let i = 0; i < 600 && !out.includes('ready'); i++) await new Promise((r) => setTimeout(r, 100));
      if (!out.includes('ready')) throw new Error(`minting child not ready: ${out}`);
    })();
    return { child, exited, ready };
  });
  try {
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.child.stdin!.end('go\n');
    return (await Promise.all(children.map((c) => c.exited))) as [Minted, Minted];
  } finally {
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  }
}
