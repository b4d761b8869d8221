import { execFileSync, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launch } from '../../app/electron/launch.js';
import { readOutbox } from '../../app/electron/outbox.js';
import { freePort } from '../../app/electron/port.js';
import { createQuitFlow } from '../../app/electron/quit.js';
import { childProcessSpawner, fromUtilityProcess, runOnce, ServerStartError, startServer, type RunningServer, type Spawner } from '../../app/electron/server-process.js';

// The compiled server, as the packaged app runs it, in a private copy (other suites rebuild dist/).
const ROOT = join(import.meta.dirname, '..', '..');
const OUT = '.test-dist-electron/serve';
const MAIN = join(ROOT, OUT, 'server', 'main.js');
const HOST = '127.0.0.1';

const spawnServer: Spawner = childProcessSpawner(MAIN);
const cli = (args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 20000 });

let userData: string;
const running: RunningServer[] = [];
const held: Server[] = [];
const hold = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen({ port, host: HOST }, () => (held.push(s), resolve()));
  });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'build', 'compile.mjs'), '--out-dir', OUT], { cwd: ROOT, stdio: 'pipe' });
}, 180000);
beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'pos-desktop-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop(5000)));
  await Promise.all(held.splice(0).map((s) => new Promise((r) => s.close(r))));
  rmSync(userData, { recursive: true, force: true });
});
afterAll(() => {
  rmSync(join(ROOT, OUT), { recursive: true, force: true });
  try {
    rmdirSync(join(ROOT, '.test-dist-electron')); // only when the other suite's copy is gone too
  } catch {
    // not empty, or already gone
  }
});

describe('the server process, started as the desktop app starts it', () => {
  it('comes up on an empty data dir, serves /health and /ui, has an empty outbox, and stops gracefully', async () => {
    const defaultPort = await freePort(HOST);
    const { server, paths, port } = await launch({ spawn: spawnServer, userData, demo: false, defaultPort });
    running.push(server);
    expect(port).toEqual({ port: defaultPort, source: 'default', save: true });
    expect(server.origin).toBe(`http://127.0.0.1:${defaultPort}`);
    expect(server.uiUrl).toBe(`http://127.0.0.1:${defaultPort}/ui/`);
    expect(server.ready).toMatchObject({ ready: true, role: 'store', dataDir: paths.dataDir, contracts: [] });

    const health = await fetch(`${server.origin}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', role: 'store' });
    // Built UI or the server's "not built" problem: either way the server's own /ui answers.
    const ui = await fetch(server.uiUrl);
    expect([200, 503]).toContain(ui.status);

    expect(await readOutbox(spawnServer, paths.dataDir)).toEqual({ depth: 0, oldestAgeMs: null, linkedContracts: 0 });
    expect(JSON.parse(readFileSync(paths.settingsFile, 'utf8'))).toMatchObject({ port: defaultPort, host: '127.0.0.1', uiLan: false });
    expect(readFileSync(paths.logFile, 'utf8')).toContain('"ready":true');

    expect(await server.stop(10000)).toBe('stopped');
    expect(await server.exited).toEqual({ code: 0 });
    expect(server.isRunning()).toBe(false);
    await expect(fetch(`${server.origin}/health`)).rejects.toThrow();
    expect(await server.stop()).toBe('not-running');

    // The next start reuses the saved port and the data.
    const again = await launch({ spawn: spawnServer, userData, demo: false, defaultPort: await freePort(HOST) });
    running.push(again.server);
    expect(again.port).toEqual({ port: defaultPort, source: 'saved', save: false });
  });

  it('reads the outbox of a linked store while it runs; the quit flow asks, and cancel keeps it running', async () => {
    const dataDir = join(userData, 'data');
    expect(cli(['contract', 'create', '--id', 'shop', '--plan', 'retail_business', '--data-dir', dataDir]).status).toBe(0);
    // Central is unreachable, so nothing leaves the outbox.
    expect(cli(['link', '--central', 'http://127.0.0.1:1', '--contract', 'shop', '--node', '5', '--secret', 'a-secret-of-some-length', '--offline', '--data-dir', dataDir]).status).toBe(0);
    const { server, paths } = await launch({ spawn: spawnServer, userData, demo: false, defaultPort: await freePort(HOST) });
    running.push(server);
    expect(cli(['seed', '--contract', 'shop', '--data-dir', dataDir]).status).toBe(0);

    const outbox = await readOutbox(spawnServer, paths.dataDir);
    expect(outbox?.linkedContracts).toBe(1);
    expect(outbox?.depth).toBeGreaterThan(0);

    const asked: number[] = [];
    let answer = false;
    const quit = createQuitFlow({
      serverRunning: () => server.isRunning(),
      readOutbox: () => readOutbox(spawnServer, paths.dataDir),
      confirm: async (q) => (asked.push(q.depth), answer),
      stopServer: () => server.stop(10000),
    });
    expect(await quit.request()).toBe('cancelled');
    expect(server.isRunning()).toBe(true);
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
    answer = true;
    expect(await quit.request()).toBe('quit');
    expect(asked).toHaveLength(2);
    expect(asked[0]).toBeGreaterThan(0);
    expect(server.isRunning()).toBe(false);
  });

  it('reports a crash before ready with the server\'s stderr', async () => {
    const port = await freePort(HOST);
    await hold(port);
    const dataDir = join(userData, 'data');
    const error = await startServer({ spawn: spawnServer, dataDir, port, host: HOST, readyTimeoutMs: 20000 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerStartError);
    const e = error as ServerStartError;
    expect(e.reason).toBe('exited');
    expect(e.exitCode).toBe(1);
    expect(e.message).toBe('the server stopped before it was ready: it exited with code 1');
    expect(e.tail).toEqual([`pos-backoffice: port ${port} on 127.0.0.1 is already in use`]);
    expect(e.portInUse).toBe(true);
  });

  it('launch tries once more on a free port when the chosen one is taken just before the listen', async () => {
    const first = await freePort(HOST);
    let calls = 0;
    // Another program grabs the port between the check and the server's listen.
    const racing: Spawner = (args) => {
      calls += 1;
      const port = Number(args[args.indexOf('--port') + 1]);
      if (calls === 1) void hold(port);
      return spawnServer(args);
    };
    const { server, port } = await launch({ spawn: racing, userData, demo: false, defaultPort: first });
    running.push(server);
    expect(calls).toBe(2);
    expect(port.port).not.toBe(first);
    expect(port.source).toBe('free');
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
    expect(readFileSync(join(userData, 'logs', 'server.log'), 'utf8')).toContain(`port ${first} was taken`);
  });

  it('gives up after the ready timeout with a clear error and leaves no process behind', async () => {
    // A stand-in that writes to stderr but never reports ready.
    const hang = join(userData, 'hang.mjs');
    writeFileSync(hang, "console.log(String(process.pid)); console.error('migrating: step 3 of 20'); setInterval(() => {}, 1000);\n");
    const error = await startServer({ spawn: childProcessSpawner(hang), dataDir: join(userData, 'data'), port: 1, host: HOST, readyTimeoutMs: 1500 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerStartError);
    const e = error as ServerStartError;
    expect(e.reason).toBe('timeout');
    expect(e.message).toBe('the server did not report that it is listening within 2 s');
    expect(e.stderrTail).toEqual(['migrating: step 3 of 20']);
    const pid = Number(e.stdoutTail[0]);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });

  it('reports a server that cannot be spawned at all', async () => {
    const error = await startServer({
      spawn: childProcessSpawner(MAIN, { execPath: join(userData, 'no-such-node') }),
      dataDir: join(userData, 'data'),
      port: 1,
      host: HOST,
      readyTimeoutMs: 5000,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerStartError);
    expect((error as ServerStartError).message).toMatch(/^the server could not be started: .*ENOENT/);
  });

  it('bounds a one-shot command that hangs', async () => {
    const hang = join(userData, 'hang.mjs');
    writeFileSync(hang, 'setInterval(() => {}, 1000);\n');
    const r = await runOnce(childProcessSpawner(hang), ['sync', 'status'], 500);
    expect(r.timedOut).toBe(true);
    expect(await readOutbox(childProcessSpawner(hang), userData, 500)).toBeNull();
  });
});

describe('utilityProcess adapter', () => {
  it('stops gracefully with kill(), forces through the pid, and relays the exit', () => {
    const child = Object.assign(new EventEmitter(), { stdout: new PassThrough(), stderr: new PassThrough(), pid: 4242, killed: 0, kill() {
      this.killed += 1;
      return true;
    } });
    const forced: number[] = [];
    const adapted = fromUtilityProcess(child, (pid) => forced.push(pid));
    const exits: (number | null)[] = [];
    adapted.onExit((code) => exits.push(code));
    adapted.kill(false);
    expect(child.killed).toBe(1);
    adapted.kill(true);
    expect(forced).toEqual([4242]);
    child.emit('exit', 0);
    expect(exits).toEqual([0]);
    expect(adapted.stdout).toBe(child.stdout);
  });
});
