import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { choosePort, DEFAULT_PORT, freePort, isPortFree, suggestPort } from '../../app/electron/port.js';

const HOST = '127.0.0.1';
const open: Server[] = [];

/** Holds a port the way another program would. */
function occupy(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen({ port, host: HOST }, () => {
      open.push(s);
      resolve((s.address() as { port: number }).port);
    });
  });
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => new Promise((r) => s.close(r))));
});

describe('port choice', () => {
  it('tells a free port from a taken one', async () => {
    const taken = await occupy();
    expect(await isPortFree(taken, HOST)).toBe(false);
    const free = await freePort(HOST);
    expect(free).toBeGreaterThan(0);
    expect(await isPortFree(free, HOST)).toBe(true);
  });

  it('keeps the saved port, free or taken: the terminals know no other', async () => {
    const saved = await freePort(HOST);
    expect(await choosePort({ saved, host: HOST })).toEqual({ port: saved, source: 'saved', save: false });
    const taken = await occupy();
    expect(await choosePort({ saved: taken, host: HOST })).toEqual({ port: taken, source: 'saved', save: false });
  });

  it('on a first start takes the default port when free and saves it', async () => {
    const defaultPort = await freePort(HOST);
    expect(await choosePort({ host: HOST, defaultPort })).toEqual({ port: defaultPort, source: 'default', save: true });
  });

  it('on a first start with the default taken takes a free port and saves that', async () => {
    const defaultPort = await occupy();
    const choice = await choosePort({ host: HOST, defaultPort });
    expect(choice).toMatchObject({ source: 'free', save: true });
    expect(choice.port).not.toBe(defaultPort);
  });

  it('offers a free port just above the default when the kept one is taken, never the taken one', async () => {
    const taken = await occupy();
    const offered = await suggestPort(HOST, taken);
    expect(offered).not.toBe(taken);
    expect(await isPortFree(offered, HOST)).toBe(true);
    // A range where every port is held: any free port instead.
    const held = await occupy();
    const other = await suggestPort(HOST, 1, held, held);
    expect(other).not.toBe(held);
    expect(await isPortFree(other, HOST)).toBe(true);
    expect(DEFAULT_PORT).toBe(8080);
  });
});
