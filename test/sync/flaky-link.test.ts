import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SyncAgent, SyncUnavailable } from '../../sync/agent.js';
import { NodeRepo } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { LinkRepo } from '../../sync/link.js';
import { CONTRACT, count, makeInstance, saleTotals, type Instance } from './helpers.js';

/**
 * A flaky link: a TCP proxy between the store and central that cuts the answers to two requests of
 * every three in the middle of central's answer (after central has done the work). No loss, no duplicate.
 */
interface Proxy {
  port: number;
  dropped: number;
  close(): Promise<void>;
}

function flakyProxy(target: number): Promise<Proxy> {
  let index = 0;
  const sockets = new Set<Socket>();
  const proxy: Proxy = { port: 0, dropped: 0, close: async () => undefined };
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    // Each request (a chunk starting with its method) decides whether its answer is cut.
    let drop = false;
    client.on('data', (chunk: Buffer) => {
      if (/^(GET|POST) /.test(chunk.subarray(0, 5).toString('latin1'))) drop = index++ % 3 !== 2;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!drop) return void client.write(chunk);
      // Part of the status line goes through, then the line is cut (central has done the work).
      client.write(chunk.subarray(0, Math.min(20, chunk.length)));
      proxy.dropped++;
      client.destroy();
      upstream.destroy();
    });
    const cleanup = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cleanup).on('close', cleanup);
    upstream.on('error', cleanup).on('close', cleanup);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      proxy.port = (server.address() as { port: number }).port;
      proxy.close = () =>
        new Promise((done) => {
          for (const s of sockets) s.destroy();
          server.close(() => done());
        });
      resolve(proxy);
    }),
  );
}

let central: Instance;
let store: Instance;
let proxy: Proxy;
afterEach(async () => {
  await proxy?.close();
  await store?.close();
  await central?.close();
});

describe('a flaky link', () => {
  it('connections cut mid-answer lose nothing and apply nothing twice', async () => {
    central = await makeInstance('central', 0);
    store = await makeInstance('store', 9);
    await central.up();
    const { secret } = new NodeRepo(syncContext(central.deps)).add(CONTRACT, 9);
    const shop = (await central.ok('POST', '/stores', { storeName: 'Main' })).storeId;
    await central.ok('POST', '/categories', { categoryName: 'Goods' });
    proxy = await flakyProxy(Number(new URL(central.url!).port));
    new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: `http://127.0.0.1:${proxy.port}`, node: 9, secret });
    const agent = new SyncAgent(store.deps, { batchItems: 7, timeoutMs: 2000 });

    const round = async () => {
      try {
        return await agent.syncOnce(CONTRACT);
      } catch (error) {
        if (!(error instanceof SyncUnavailable)) throw error;
        return { more: true };
      }
    };
    // Masters come down through the flaky link first.
    for (let i = 0; i < 50 && count(store.deps, 'SELECT count(*) FROM stores WHERE store_id = ?', shop) === 0; i++) await round();
    const terminal = (await store.ok('POST', '/terminals', { storeId: shop, terminalName: 'R1' }))[0].terminalId;
    for (let n = 0; n < 40; n++) {
      await store.ok('POST', '/transactions', {
        transactionHeadDivision: '1',
        storeId: shop,
        terminalId: terminal,
        terminalTranDateTime: '2026-11-22T10:00:00+09:00',
        details: [{ transactionDetailId: '1', transactionDetailDivision: '1', productName: 'Item', salesPrice: String(10 + n), quantity: '1', taxDivision: '2' }],
      });
    }
    await central.ok('PATCH', `/stores/${shop}`, { storeName: 'Main street' });
    const lastSeq = count(store.deps, 'SELECT max(seq) FROM outbox');

    let rounds = 0;
    for (; rounds < 200; rounds++) {
      const r = await round();
      if (!r.more && count(store.deps, 'SELECT count(*) FROM outbox') === 0) break;
    }
    expect(rounds).toBeLessThan(200);
    expect(proxy.dropped).toBeGreaterThan(10);
    const sums = (i: Instance) => saleTotals(i.deps);
    expect(sums(central)).toEqual(sums(store));
    expect(count(central.deps, 'SELECT count(*) FROM transactions')).toBe(40);
    expect(count(central.deps, 'SELECT count(*) FROM transaction_details')).toBe(40);
    expect(count(central.deps, 'SELECT high_water FROM sync_nodes WHERE node = 9')).toBe(lastSeq);
    // The store's terminal was logged once at central, however often its batch was resent.
    expect(count(central.deps, 'SELECT count(*) FROM change_log WHERE entity = ? AND entity_id = ?', 'terminal', terminal)).toBe(1);
    expect(count(central.deps, "SELECT count(*) FROM dead_letters")).toBe(0);
    // The master edited at central arrived through the same link.
    expect(count(store.deps, 'SELECT count(*) FROM stores WHERE store_name = ?', 'Main street')).toBe(1);
  });
});
