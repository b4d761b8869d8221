import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ENV as SHELL_ENV, SERVER_NODE_FLAGS as SHELL_FLAGS } from '../../app/electron/server-options.js';
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../server/process-options.js';
import { compileCopy, ROOT } from '../helpers/serve-child.js';

// How the server process is started: the bin's #! line, `npm start` (server/start.ts) and the
// desktop shell all give it the same Node flags and environment (server/process-options.ts).
const OUT = '.test-dist-start';

describe('the server process options', () => {
  it('are the same in the #! line of the bin, the desktop shell and server/process-options.ts', () => {
    const envPairs = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v}`);
    const firstLine = readFileSync(join(ROOT, 'main.ts'), 'utf8').split('\n')[0];
    expect(firstLine).toBe(`#!/usr/bin/env -S ${[...envPairs, 'node', ...SERVER_NODE_FLAGS].join(' ')}`);
    expect(SHELL_FLAGS).toEqual(SERVER_NODE_FLAGS);
    expect(SHELL_ENV).toEqual(SERVER_ENV);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };
    expect(pkg.scripts.start).toBe('node dist/server/start.js serve --demo');
    expect(pkg.bin['pos-backoffice']).toBe('dist/main.js');
  });
});

// /proc shows a process's environment and arguments: Linux only (CI is Linux).
describe.runIf(process.platform === 'linux')('npm start (server/start.js)', () => {
  let start: string;
  const dirs: string[] = [];

  beforeAll(() => {
    start = join(compileCopy(OUT), '..', 'server', 'start.js');
  }, 120_000);
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    rmSync(join(ROOT, OUT), { recursive: true, force: true });
  });

  /** Starts the launcher on a fresh data dir; resolves at the server's ready line with the server's pid. */
  function launch(): Promise<{ launcher: ChildProcess; serverPid: number; url: string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-start-'));
    dirs.push(dataDir);
    const launcher = spawn(process.execPath, [start, 'serve', '--demo', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, POS_LOG_LEVEL: 'warn', MALLOC_MMAP_THRESHOLD_: undefined },
    });
    return new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no ready line: ${out} ${err}`)), 30_000);
      launcher.stderr!.on('data', (c: Buffer) => (err += c.toString()));
      launcher.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
        if (!line) return;
        clearTimeout(timer);
        const children = childrenOf(launcher.pid!);
        if (children.length !== 1) return reject(new Error(`expected one server process under the launcher, found ${children.length}`));
        resolve({ launcher, serverPid: children[0]!, url: (JSON.parse(line) as { url: string }).url });
      });
    });
  }

  const exited = (p: ChildProcess) => new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => p.once('exit', (code, signal) => resolve({ code, signal })));

  it('runs the server with the flags and environment, and it answers', async () => {
    const { launcher, serverPid, url } = await launch();
    const environ = readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0');
    const argv = readFileSync(`/proc/${serverPid}/cmdline`, 'utf8').split('\0');
    for (const [k, v] of Object.entries(SERVER_ENV)) expect(environ).toContain(`${k}=${v}`);
    for (const flag of SERVER_NODE_FLAGS) expect(argv).toContain(flag);
    expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
    const done = exited(launcher);
    launcher.kill('SIGTERM');
    expect(await done).toEqual({ code: 0, signal: null });
    expect(existsSync(`/proc/${serverPid}`)).toBe(false);
  }, 60_000);

  it('stops the server cleanly on Ctrl-C, which reaches both processes, even when npm passes it on again', async () => {
    const { launcher, serverPid } = await launch();
    const done = exited(launcher);
    // The terminal's SIGINT to both, then npm's copy to the launcher (which forwards it).
    process.kill(serverPid, 'SIGINT');
    launcher.kill('SIGINT');
    launcher.kill('SIGINT');
    expect(await done).toEqual({ code: 0, signal: null });
    expect(existsSync(`/proc/${serverPid}`)).toBe(false);
  }, 60_000);

  it('ends the way the server ended when it was killed', async () => {
    const { launcher, serverPid } = await launch();
    const done = exited(launcher);
    process.kill(serverPid, 'SIGKILL');
    expect(await done).toEqual({ code: null, signal: 'SIGKILL' });
  }, 60_000);
});

/** The pids whose parent is `pid` (from /proc/<pid>/stat, field 4). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}
