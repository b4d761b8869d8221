import { request, type IncomingMessage } from 'node:http';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

/**
 * Stopping the server (the app quitting, a central process restarting): app.close() waits for the
 * requests in flight, then must not wait for their keep-alive connections, which a client (a
 * register, undici's fetch) holds open for the server's keep-alive time, 72 s.
 */
describe('closing the server', () => {
  let t: TestApp | undefined;
  const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
  afterEach(async () => {
    agent.destroy();
    await t?.close();
    t = undefined;
  });

  it('answers the request in flight, then closes its keep-alive connection instead of waiting for the client', async () => {
    t = await makeTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const body = JSON.stringify({ storeName: 'Late', storeCode: 'LATE-1' });
    // The request's headers arrive, its body only once close() has begun: it is in flight.
    let answer!: Promise<{ status: number; text: string }>;
    const req = request({ host: '127.0.0.1', port, agent, method: 'POST', path: `/${t.contractId}/pos/stores`, headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const socketClosed = new Promise<void>((resolve) => req.on('socket', (socket) => socket.on('close', () => resolve())));
    answer = new Promise((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
    });
    req.flushHeaders();
    await new Promise((resolve) => setTimeout(resolve, 100));

    const closing = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    req.end(body);

    const res = await answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ storeName: 'Late', storeCode: 'LATE-1' });
    // Within seconds, not the 72 s a keep-alive client would hold the connection.
    const within = (ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve('timed out'), ms).unref());
    expect(await Promise.race([closing.then(() => 'closed'), within(5000)])).toBe('closed');
    await socketClosed;
  });
});
