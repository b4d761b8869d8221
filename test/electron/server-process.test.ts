import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launch, type Launched } from '../../app/electron/launch.js';
import { readOutbox } from '../../app/electron/outbox.js';
import { freePort } from '../../app/electron/port.js';
import { createQuitFlow } from '../../app/electron/quit.js';
import { childProcessSpawner, runOnce, ServerStartError, startServer, type RunningServer, type Spawner } from '../../app/electron/server-process.js';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../app/electron/server-options.js';
import { DEFAULT_SETTINGS, saveSettings } from '../../app/electron/settings.js';
import { alive, eventually, runningServer, until } from './helpers.js';

// The compiled server, as the packaged app runs it, in a private copy (other suites rebuild dist/).
const ROOT = join(import.meta.dirname, '..', '..');
const OUT = '.test-dist-electron/serve';
const MAIN = join(ROOT, OUT, 'main.js');
const HOST = '127.0.0.1';

const spawnServer: Spawner = childProcessSpawner(MAIN);
const cli = (args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 20000 });

let userData: string;
let guard: string;
const running: RunningServer[] = [];
const launches: Launched[] = [];
const held: Server[] = [];
const hold = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen({ port, host: HOST }, () => (held.push(s), resolve()));
  });
/** The app's server on this PC only (tests listen on 127.0.0.1), launched as main.ts does. */
async function launchLocal(opts: { spawn?: Spawner; defaultPort?: number; settings?: object } = {}): Promise<Launched> {
  const file = join(userData, 'desktop-settings.json');
  if (!existsSync(file)) saveSettings(file, { ...DEFAULT_SETTINGS, lan: false, ...opts.settings });
  const launched = await launch({
    spawn: opts.spawn ?? spawnServer,
    userData,
    demo: false,
    defaultPort: opts.defaultPort ?? (await freePort(HOST)),
    policy: { backoffMs: [50], portRetryMs: 100, maxCrashes: 3 },
  });
  launches.push(launched);
  return launched;
}

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'build', 'compile.mjs'), '--out-dir', OUT], { cwd: ROOT, stdio: 'pipe' });
  // The guard as the shell's compile makes it (app/electron/tsconfig.json: CommonJS for .cts).
  const source = readFileSync(join(ROOT, 'app', 'electron', 'server-guard.cts'), 'utf8');
  guard = join(ROOT, OUT, 'server-guard.cjs');
  mkdirSync(join(ROOT, OUT), { recursive: true });
  writeFileSync(guard, ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText);
}, 180000);
beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'pos-desktop-'));
});
afterEach(async () => {
  await Promise.all(launches.splice(0).map(async (l) => (await l.supervisor.stop(5000), await l.log.close())));
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
    // A first start: no settings file yet (the test keeps it on this PC: lan false).
    const { supervisor, paths, port, log } = await launchLocal({ defaultPort });
    const server = runningServer(await until(supervisor, (s) => s.kind === 'running'));
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

    expect(await readOutbox(spawnServer, paths.dataDir)).toEqual({ depth: 0, oldestAgeMs: null, linkedContracts: 0, online: null });
    // The port chosen at the set-up is saved at once.
    expect(JSON.parse(readFileSync(paths.settingsFile, 'utf8'))).toEqual({ ...DEFAULT_SETTINGS, lan: false, port: defaultPort });
    await log.flush();
    expect(readFileSync(paths.logFile, 'utf8')).toContain('"ready":true');

    await supervisor.stop(10000);
    expect(await server.exited).toEqual({ code: 0 });
    expect(server.isRunning()).toBe(false);
    await expect(fetch(`${server.origin}/health`)).rejects.toThrow();
    expect(await server.stop()).toBe('not-running');

    // The next start keeps the saved port and the data.
    const again = await launchLocal();
    expect(again.port).toEqual({ port: defaultPort, source: 'saved', save: false });
    expect(runningServer(await until(again.supervisor, (s) => s.kind === 'running')).port).toBe(defaultPort);
  });

  it('serves the API to the LAN by default, the UI to this PC only', async () => {
    // Recorded, not run: tests listen on 127.0.0.1 only.
    const calls: string[][] = [];
    const recording: Spawner = (args) => (calls.push(args), childProcessSpawner(join(userData, 'never-ready.mjs'))(args));
    writeFileSync(join(userData, 'never-ready.mjs'), "console.error('stand-in'); process.exit(9);\n");
    const defaultPort = await freePort(HOST);
    const { supervisor, paths } = await launch({ spawn: recording, userData, demo: false, defaultPort, policy: { maxCrashes: 1 } });
    launches.push({ supervisor, log: { close: async () => undefined } } as unknown as Launched);
    await until(supervisor, (s) => s.kind === 'failed');
    expect(calls).toEqual([['serve', '--port', String(defaultPort), '--host', '0.0.0.0', '--data-dir', paths.dataDir]]);
  });

  it('restarts the real server after it is killed, on the same port, with its data', async () => {
    const { supervisor, paths } = await launchLocal();
    const first = runningServer(await until(supervisor, (s) => s.kind === 'running'));
    expect(alive(first.pid!)).toBe(true);
    process.kill(first.pid!, 'SIGKILL');
    const second = runningServer(await until(supervisor, (s) => s.kind === 'running' && s.restarts === 1));
    expect(second.port).toBe(first.port);
    expect(await first.exited).toEqual({ code: null });
    expect(second.pid).not.toBe(first.pid);
    expect((await fetch(`${second.origin}/health`)).status).toBe(200);
    expect(existsSync(join(paths.dataDir, 'pos.sqlite'))).toBe(true);
  });

  it('reads the outbox of a linked store while it runs; the quit flow asks, and cancel keeps it running', async () => {
    const dataDir = join(userData, 'data');
    expect(cli(['contract', 'create', '--id', 'shop', '--plan', 'retail_business', '--data-dir', dataDir]).status).toBe(0);
    // Central is unreachable, so nothing leaves the outbox.
    expect(cli(['link', '--central', 'http://127.0.0.1:1', '--contract', 'shop', '--node', '5', '--secret', 'a-secret-of-some-length', '--offline', '--data-dir', dataDir]).status).toBe(0);
    const { supervisor, paths } = await launchLocal();
    const server = runningServer(await until(supervisor, (s) => s.kind === 'running'));
    expect(cli(['seed', '--contract', 'shop', '--data-dir', dataDir]).status).toBe(0);

    const outbox = await readOutbox(spawnServer, paths.dataDir);
    expect(outbox?.linkedContracts).toBe(1);
    expect(outbox?.depth).toBeGreaterThan(0);
    expect(outbox?.online).toBe(false);

    const asked: number[] = [];
    let answer = false;
    const quit = createQuitFlow({
      serverRunning: () => supervisor.server()?.isRunning() ?? false,
      readOutbox: () => readOutbox(spawnServer, paths.dataDir),
      confirm: async (q) => (asked.push(q.depth), answer),
      stopServer: () => supervisor.stop(10000),
    });
    expect(await quit.request()).toBe('cancelled');
    expect(server.isRunning()).toBe(true);
    expect((await fetch(`${server.origin}/health`)).status).toBe(200);
    answer = true;
    expect(await quit.request()).toBe('quit');
    expect(asked).toHaveLength(2);
    expect(asked[0]).toBeGreaterThan(0);
    expect(server.isRunning()).toBe(false);
    // Quitting is not a crash: nothing starts it again.
    expect(supervisor.state.kind).toBe('stopped');
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

  it('says a saved port another program holds and waits for that same port, never another', async () => {
    const port = await freePort(HOST);
    saveSettings(join(userData, 'desktop-settings.json'), { ...DEFAULT_SETTINGS, lan: false, port });
    await hold(port);
    const ports: string[] = [];
    const recording: Spawner = (args) => (ports.push(args[args.indexOf('--port') + 1]!), spawnServer(args));
    const { supervisor, log, paths } = await launchLocal({ spawn: recording });
    const taken = await until(supervisor, (s) => s.kind === 'port-in-use');
    expect(taken).toMatchObject({ kind: 'port-in-use', port, tail: [`pos-backoffice: port ${port} on 127.0.0.1 is already in use`] });

    // The other program goes away: the next try serves on the same port.
    await Promise.all(held.splice(0).map((s) => new Promise((r) => s.close(r))));
    const server = runningServer(await until(supervisor, (s) => s.kind === 'running'));
    expect(server.port).toBe(port);
    expect(new Set(ports)).toEqual(new Set([String(port)]));
    expect(JSON.parse(readFileSync(paths.settingsFile, 'utf8')).port).toBe(port);
    await log.flush();
    expect(readFileSync(paths.logFile, 'utf8')).toContain(`port ${port} on 127.0.0.1 is already in use; trying port ${port} again every 100 ms`);
  });

  it('restarts the server on a new port when the settings file changes, and keeps it when the port is removed by hand', async () => {
    const { supervisor, paths, reloadSettings } = await launchLocal();
    const first = runningServer(await until(supervisor, (s) => s.kind === 'running'));
    expect(await reloadSettings()).toEqual({ restartServer: false, loginItem: false });
    const next = await freePort(HOST);
    saveSettings(paths.settingsFile, { ...DEFAULT_SETTINGS, lan: false, port: next, startAtLogin: false });
    expect(await reloadSettings()).toEqual({ restartServer: true, loginItem: true });
    const second = runningServer(await until(supervisor, (s) => s.kind === 'running'));
    expect(second.port).toBe(next);
    expect(await first.exited).toEqual({ code: 0 });
    const { port: _dropped, ...withoutPort } = JSON.parse(readFileSync(paths.settingsFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(paths.settingsFile, JSON.stringify(withoutPort));
    expect(await reloadSettings()).toEqual({ restartServer: false, loginItem: false });
    expect(supervisor.server()).toBe(second);
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

  it('waits without a time limit once the server says it is updating the database', async () => {
    // Reports ready well after the ready timeout, having said first that it migrates.
    const slow = join(userData, 'slow.mjs');
    writeFileSync(
      slow,
      `console.log(JSON.stringify({ migrating: true, from: 25, to: 30, backup: '/d/backups/x-pre-migration.sqlite' }));
setTimeout(() => console.log(JSON.stringify({ ready: true, url: 'http://127.0.0.1:1' })), 1500);
process.on('SIGTERM', () => process.exit(0));
setInterval(() => {}, 1000);
`,
    );
    const options = { spawn: childProcessSpawner(slow), dataDir: join(userData, 'data'), port: 1, host: HOST, readyTimeoutMs: 300 };
    const server = await startServer({ ...options, liftsTimeout: (line) => line.startsWith('{"migrating":true') });
    running.push(server);
    expect(server.ready).toMatchObject({ ready: true });
    // Without it the same server is given up on.
    const error = await startServer(options).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as ServerStartError).reason).toBe('timeout');
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

describe('the server process under the desktop app', () => {
  it('runs with the server\'s Node flags and malloc setting (Electron runs it as Node for that)', async () => {
    const probe = join(userData, 'probe.cjs');
    writeFileSync(probe, 'console.log(JSON.stringify({ execArgv: process.execArgv, malloc: process.env.MALLOC_MMAP_THRESHOLD_, asNode: process.env.ELECTRON_RUN_AS_NODE, semi: require("v8").getHeapSpaceStatistics().length > 0 }));\n');
    const r = await runOnce(childProcessSpawner(probe, { env: { PATH: process.env.PATH ?? '', ...SERVER_ENV }, runAsNode: true }), [], 10_000);
    const seen = JSON.parse(r.stdout) as { execArgv: string[]; malloc: string; asNode: string };
    expect(seen.execArgv).toEqual([...SERVER_NODE_FLAGS]);
    expect(seen.malloc).toBe('131072');
    expect(seen.asNode).toBe('1');
  });

  it('stops gracefully by itself when the app that started it dies (the guard on its stdin)', async () => {
    const dataDir = join(userData, 'data');
    const port = await freePort(HOST);
    // The "app": starts the server with the guard as main.ts does, then is killed.
    const app = join(userData, 'app.cjs');
    writeFileSync(
      app,
      `const { spawn } = require('node:child_process');
const [guard, main, ...args] = process.argv.slice(2);
const child = spawn(process.execPath, ['--require', guard, main, ...args], { stdio: ['pipe', 'inherit', 'inherit'] });
console.log('pid ' + child.pid);
setInterval(() => {}, 1000);
`,
    );
    const parent = spawn(process.execPath, [app, guard, MAIN, 'serve', '--port', String(port), '--host', HOST, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let serverPid = 0;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the server did not start')), 20_000);
      createInterface({ input: parent.stdout! }).on('line', (line) => {
        if (line.startsWith('pid ')) serverPid = Number(line.slice(4));
        if (line.startsWith('{"ready":true')) (clearTimeout(timer), resolve());
      });
    });
    expect(alive(serverPid)).toBe(true);
    expect(existsSync(join(dataDir, 'pos.sqlite-wal'))).toBe(true);

    parent.kill('SIGKILL');
    await eventually('the server stops', () => !alive(serverPid));
    // Closed, not killed: SQLite removes the WAL file when the last connection closes.
    expect(existsSync(join(dataDir, 'pos.sqlite-wal'))).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });

  it('stops gracefully through the guard alone where there is no SIGTERM (Windows)', async () => {
    const dataDir = join(userData, 'data');
    const server = await startServer({
      spawn: childProcessSpawner(MAIN, { guard, platform: 'win32' }),
      dataDir,
      port: await freePort(HOST),
      host: HOST,
      readyTimeoutMs: 20_000,
    });
    expect(await server.stop(10_000)).toBe('stopped');
    expect(await server.exited).toEqual({ code: 0 });
    expect(existsSync(join(dataDir, 'pos.sqlite-wal'))).toBe(false);
  });
});
