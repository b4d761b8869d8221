import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientToken, compileCopy, serveDemo } from '../helpers/serve-child.js';

/**
 * Issue 10: registers retry sales they got no answer for. The server runs compiled in its own
 * process; it is SIGKILLed while sales are in flight, restarted on the same data, and every sale
 * is sent again: each must be stored exactly once.
 */
const OUT = '.test-dist-crash';
let main: string;
const SALES = 80;

describe('a register retrying unanswered sales across a server crash', () => {
  let dataDir: string;
  beforeAll(() => {
    main = compileCopy(OUT);
    dataDir = mkdtempSync(join(tmpdir(), 'pos-crash-'));
  }, 180000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stores each sale exactly once after SIGKILL, restart and a retry of every sale', async () => {
    const first = await serveDemo(main, dataDir);
    const bearer = await clientToken(first.retail, ['pos.transactions:read', 'pos.transactions:write', 'pos.stores:read']);
    const terminals = (await (await fetch(`${first.retail.baseUrl}/terminals?limit=1`, { headers: { authorization: `Bearer ${bearer}` } })).json()) as {
      terminalId: string;
      storeId: string;
    }[];
    const { terminalId, storeId } = terminals[0]!;
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const bodies = Array.from({ length: SALES }, (_, i) => ({
      storeId,
      terminalId,
      transactionHeadDivision: '1',
      terminalTranId: `CRASH-${i}`,
      terminalTranDateTime: at,
      details: [{ transactionDetailId: '1', salesPrice: String(100 + i), quantity: '1' }],
      depositCash: String(100 + i),
    }));
    const send = (base: string, body: object) =>
      fetch(`${base}/transactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(
        (res) => res.status,
        () => 0,
      );

    // Sales go out in waves; the server is killed while the later waves are in flight.
    const answered = new Map<number, number>();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < SALES; i++) {
      inFlight.push(send(first.retail.baseUrl, bodies[i]!).then((status) => void answered.set(i, status)));
      if (i === Math.floor(SALES / 2)) {
        await new Promise((r) => setTimeout(r, 15));
        first.child.removeAllListeners('exit');
        first.child.kill('SIGKILL');
      }
    }
    await Promise.all(inFlight);
    const unanswered = [...answered.entries()].filter(([, s]) => s !== 200).length;
    expect(unanswered).toBeGreaterThan(0); // the crash did cut some sales off

    const second = await serveDemo(main, dataDir);
    try {
      // The register resends every sale it is not sure of: here, all of them.
      const statuses = await Promise.all(bodies.map((b) => send(second.retail.baseUrl, b)));
      expect(statuses.every((s) => s === 200)).toBe(true);
      // And once more, as a register that lost the answers again would.
      expect((await Promise.all(bodies.slice(0, 10).map((b) => send(second.retail.baseUrl, b)))).every((s) => s === 200)).toBe(true);
    } finally {
      second.child.removeAllListeners('exit');
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }

    const db = new Database(join(dataDir, 'pos.sqlite'), { readonly: true });
    try {
      const rows = db
        .prepare("SELECT terminal_tran_id AS id, count(*) AS n, sum(total) AS total FROM transactions WHERE terminal_tran_id LIKE 'CRASH-%' GROUP BY terminal_tran_id")
        .all() as { id: string; n: number; total: number }[];
      expect(rows.length).toBe(SALES);
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      const expected = bodies.reduce((sum, b) => sum + Number(b.depositCash), 0);
      expect(rows.reduce((sum, r) => sum + r.total / 1000, 0)).toBe(expected);
    } finally {
      db.close();
    }
  }, 120000);
});
