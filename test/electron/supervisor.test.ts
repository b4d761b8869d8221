import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { CrashWindow } from '../../app/electron/crash-window.js';
import { childProcessSpawner, startServer, type Spawner } from '../../app/electron/server-process.js';
import { createSupervisor, type ServerState, type Supervisor } from '../../app/electron/supervisor.js';
import { alive, describeState, until as untilState } from './helpers.js';

const until = (s: Supervisor, check: (state: ServerState) => boolean) => untilState(s, check, 15_000);

// A stand-in for `serve` in a real Node child process: it prints the ready line (with its pid)
// and runs until stopped, or fails the way STANDIN_MODE says. The real server's restart is in
// server-process.test.ts; this one makes crash loops cheap.
const STANDIN = `
const mode = process.env.STANDIN_MODE;
const port = process.argv[process.argv.indexOf('--port') + 1];
if (mode === 'crash') { console.error('boom: the database is damaged'); process.exit(3); }
if (mode === 'port') { console.error('pos-backoffice: port ' + port + ' on 127.0.0.1 is already in use'); process.exit(1); }
console.log(JSON.stringify({ ready: true, url: 'http://127.0.0.1:' + port, pid: process.pid }));
process.on('SIGTERM', () => process.exit(0));
setInterval(() => {}, 1000);
`;

let dir: string;
let script: string;
const supervisors: Supervisor[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pos-supervisor-'));
  script = join(dir, 'standin.cjs');
  writeFileSync(script, STANDIN);
});
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((s) => s.stop(5000)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spawner = (mode: () => string): Spawner => (args) => childProcessSpawner(script, { env: { ...process.env, STANDIN_MODE: mode() } })(args);

/** A supervisor over the stand-in, and every state it went through (kind and the numbers that matter). */
function supervise(mode: () => string, policy = {}) {
  const seen: string[] = [];
  const spawn = spawner(mode);
  const supervisor = createSupervisor({
    start: () => startServer({ spawn, dataDir: dir, port: 8080, host: '127.0.0.1', readyTimeoutMs: 15_000 }),
    policy: { backoffMs: [20, 40], maxCrashes: 3, windowMs: 60_000, portRetryMs: 20, ...policy },
  });
  supervisor.onState((s) => seen.push(describeState(s)));
  supervisors.push(supervisor);
  return { supervisor, seen };
}

const pidOf = (s: ServerState) => (s.kind === 'running' ? (s.server.ready as unknown as { pid: number }).pid : 0);
describe('server supervisor', () => {
  it('starts a server killed with SIGKILL again after the back-off, and counts the restart', async () => {
    const { supervisor, seen } = supervise(() => 'serve');
    supervisor.start();
    const first = pidOf(await until(supervisor, (s) => s.kind === 'running'));
    expect(first).toBeGreaterThan(0);

    process.kill(first, 'SIGKILL');
    const again = await until(supervisor, (s) => s.kind === 'running' && s.restarts === 1);
    const second = pidOf(again);
    expect(second).not.toBe(first);
    expect(alive(first)).toBe(false);
    expect(alive(second)).toBe(true);
    expect(seen).toEqual(['starting 0', 'running 0', 'waiting crash=1 in=20 (the server process was killed)', 'starting 1', 'running 1']);
  });

  it('backs off longer for each crash within the window, then gives up and reports the last output', async () => {
    const { supervisor, seen } = supervise(() => 'crash');
    supervisor.start();
    const failed = await until(supervisor, (s) => s.kind === 'failed');
    const reason = 'the server stopped before it was ready: it exited with code 3';
    expect(seen).toEqual([
      'starting 0',
      `waiting crash=1 in=20 (${reason})`,
      'starting 1',
      `waiting crash=2 in=40 (${reason})`,
      'starting 2',
      `failed crashes=3 (${reason}) boom: the database is damaged`,
    ]);
    expect(failed.kind === 'failed' && failed.tail).toEqual(['boom: the database is damaged']);
  });

  it('starts again on a person\'s restart after giving up, the earlier crashes forgotten', async () => {
    let mode = 'crash';
    const { supervisor, seen } = supervise(() => mode);
    supervisor.start();
    await until(supervisor, (s) => s.kind === 'failed');
    mode = 'serve';
    seen.length = 0;
    await supervisor.restart();
    await until(supervisor, (s) => s.kind === 'running');
    expect(seen).toEqual(['stopped', 'starting 0', 'running 0']);
  });

  it('waits for a port another program holds, saying so once, and never moves to another port', async () => {
    let mode = 'port';
    const ports: string[] = [];
    const spawn = spawner(() => mode);
    const seen: string[] = [];
    let tries = 0;
    const supervisor = createSupervisor({
      start: () => {
        tries += 1;
        if (tries === 3) mode = 'serve'; // whatever held it is gone by the third try
        return startServer({ spawn: (args) => (ports.push(args[args.indexOf('--port') + 1]!), spawn(args)), dataDir: dir, port: 8123, host: '127.0.0.1', readyTimeoutMs: 15_000 });
      },
      policy: { backoffMs: [20], maxCrashes: 2, windowMs: 60_000, portRetryMs: 20 },
    });
    supervisors.push(supervisor);
    supervisor.onState((s) => seen.push(describeState(s)));
    supervisor.start();
    await until(supervisor, (s) => s.kind === 'running');
    // Not a crash: two taken tries did not reach maxCrashes = 2.
    expect(seen).toEqual(['starting 0', 'port-in-use 8123', 'running 0']);
    expect(ports).toEqual(['8123', '8123', '8123']);
  });

  it('does not restart what it was told to stop, nor after a stop during the back-off', async () => {
    const { supervisor, seen } = supervise(() => 'serve', { backoffMs: [60_000] });
    supervisor.start();
    const pid = pidOf(await until(supervisor, (s) => s.kind === 'running'));
    await supervisor.stop(5000);
    expect(alive(pid)).toBe(false);
    expect(seen).toEqual(['starting 0', 'running 0', 'stopped']);

    supervisor.start();
    const next = pidOf(await until(supervisor, (s) => s.kind === 'running'));
    process.kill(next, 'SIGKILL');
    await until(supervisor, (s) => s.kind === 'waiting');
    await supervisor.stop(5000);
    expect(supervisor.state.kind).toBe('stopped');
    expect(supervisor.server()).toBeNull();
  });
});

describe('crash window', () => {
  it('counts the crashes within the window only, and forgets on reset', () => {
    const w = new CrashWindow(3, 1000);
    expect(w.record(0)).toBe(1);
    expect(w.record(500)).toBe(2);
    expect(w.exhausted(600)).toBe(false);
    expect(w.record(900)).toBe(3);
    expect(w.exhausted(950)).toBe(true);
    // The first two are older than the window by now.
    expect(w.record(1600)).toBe(2);
    w.reset();
    expect(w.record(1700)).toBe(1);
  });
});
