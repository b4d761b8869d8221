import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncAgent, SyncUnavailable } from '../../sync/agent.js';
import { LinkRepo } from '../../sync/link.js';
import { syncStatus, type StoreSyncStatus } from '../../sync/status.js';
import { pushBody } from '../../sync/wire.js';
import { CONTRACT, count, makeInstance, type Instance } from './helpers.js';

/**
 * The push / pull wire format is one zod definition (sync/wire.ts): central's routes validate
 * with it, the store's agent takes its types from it and checks central's answers with it. Here
 * the "central" is a plain HTTP server on 127.0.0.1 that answers what a test tells it.
 */

let store: Instance;
let fake: Server;
let answer: (path: string, body: string) => unknown;
const received: { path: string; body: string }[] = [];

beforeEach(async () => {
  store = await makeInstance('store', 7);
  fake = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      received.push({ path, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(path, body)));
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const { port } = fake.address() as AddressInfo;
  new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: `http://127.0.0.1:${port}`, node: 7, secret: 'nsec_test' });
  // One record in the outbox: a category made at the store.
  await store.ok('POST', '/categories', { categoryName: 'Goods' });
});
afterEach(async () => {
  received.length = 0;
  await new Promise((resolve) => fake.close(resolve));
  await store.close();
});

const outbox = () => count(store.deps, 'SELECT count(*) FROM outbox WHERE contract_id = ?', CONTRACT);
const status = () => syncStatus(store.deps, CONTRACT) as StoreSyncStatus;

describe('the wire format', () => {
  it("the agent's push body is what central's schema takes; a well-formed answer acknowledges the batch", async () => {
    answer = (_path, body) => {
      const batch = pushBody.parse(JSON.parse(body));
      return { acked: batch.items.at(-1)!.seq, applied: batch.items.length, skipped: 0, deadLetters: [], hlc: '000000000000000-000000-000', wallTime: Date.parse('2026-11-22T01:00:00Z') };
    };
    expect(await new SyncAgent(store.deps).push(CONTRACT)).toEqual({ sent: 1, acked: expect.any(Number), deadLetters: 0, more: false });
    expect(received.map((r) => r.path)).toEqual([`/sync/${CONTRACT}/push`]);
    expect(pushBody.parse(JSON.parse(received[0]!.body)).items).toMatchObject([{ entity: 'category', op: 'insert' }]);
    expect(outbox()).toBe(0);
  });

  it('a push answer not in the wire format acknowledges nothing: the outbox is kept and the link is offline, saying why', async () => {
    answer = () => ({ acked: 'everything', deadLetters: null });
    const push = new SyncAgent(store.deps).push(CONTRACT);
    await expect(push).rejects.toBeInstanceOf(SyncUnavailable);
    await expect(push).rejects.toThrow("POST push: the answer is not in central's wire format");
    expect(outbox()).toBe(1);
    expect(status()).toMatchObject({ online: false, lastError: "POST push: the answer is not in central's wire format" });
  });

  it('a pull answer not in the wire format applies nothing and keeps the cursor', async () => {
    answer = () => ({ items: [{ entity: 'category', op: 'replace' }], cursor: 99, more: false, hlc: 'x', wallTime: 0 });
    await expect(new SyncAgent(store.deps).pull(CONTRACT)).rejects.toThrow("GET pull: the answer is not in central's wire format");
    expect(new LinkRepo(store.deps).get(CONTRACT)!.pullCursor).toBe(0);
    expect(status()).toMatchObject({ online: false, lastError: "GET pull: the answer is not in central's wire format" });
  });
});
