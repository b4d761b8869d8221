import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The compiled server in its own process, for tests that SIGKILL it: a private compiled copy
 * (`build/compile.mjs --out-dir`, or dist/ copied, so a build of dist/ elsewhere never swaps it
 * mid-test), `serve` of that copy resolved on its ready line (`serve --demo` with the demo-retail
 * contract from it), and its one-shot commands with their JSON line.
 */
export const ROOT = join(import.meta.dirname, '..', '..');

export interface DemoContract {
  contractId: string;
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Compiles the server into `<repo>/<outDir>` (git-ignored as `.test-dist*`); returns its main.js, the CLI entry. */
export function compileCopy(outDir: string): string {
  execFileSync(process.execPath, [join(ROOT, 'build', 'compile.mjs'), '--out-dir', outDir], { cwd: ROOT, stdio: 'pipe' });
  return join(ROOT, outDir, 'main.js');
}

/**
 * A private copy of the compiled server in `<repo>/<outDir>` (git-ignored), so that a build of
 * dist/ during the test never swaps the code of a process it starts later: dist/ copied without
 * its UI when it is there (the run's global set-up built it: under a second instead of a
 * compile's 20-50 s), checked not to have been swapped during the copy; compiled otherwise.
 */
export function serverCopy(outDir: string): string {
  const dist = join(ROOT, 'dist');
  const out = join(ROOT, outDir);
  const ui = join(dist, 'ui');
  for (let attempt = 0; attempt < 3 && existsSync(join(dist, 'main.js')); attempt++) {
    const before = statSync(dist).ino;
    rmSync(out, { recursive: true, force: true });
    try {
      cpSync(dist, out, { recursive: true, filter: (src) => src !== ui && !src.startsWith(`${ui}/`) });
    } catch {
      continue;
    }
    if (existsSync(dist) && statSync(dist).ino === before && existsSync(join(out, 'main.js'))) return join(out, 'main.js');
  }
  rmSync(out, { recursive: true, force: true });
  return compileCopy(outDir);
}

/** A `serve` of the compiled CLI in its own process, once it printed its ready line. */
export interface Served {
  child: ChildProcess;
  /** Its URL, from the ready line. */
  url: string;
  /** The ready line (`{"ready":true,…}`) as JSON. */
  ready: Record<string, unknown>;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
}

export interface ServeOptions {
  /** More environment, over process.env and POS_LOG_LEVEL=warn. */
  env?: Record<string, string>;
  /** The list the child joins as soon as it is spawned (the test kills what is left of it at its end). */
  children?: ChildProcess[];
  /** Each piece of output as it comes (stdout and stderr). */
  onOutput?: (text: string) => void;
  /** How long it may take to print its ready line (60 s). */
  readyTimeoutMs?: number;
}

/** Starts `serve <args>` of the compiled CLI `main`; resolves once it prints its ready line, rejects if it exits or times out first. */
export function serveChild(main: string, args: string[], options: ServeOptions = {}): Promise<Served> {
  return new Promise<Served>((resolve, reject) => {
    const child = spawn(process.execPath, [main, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, POS_LOG_LEVEL: 'warn', ...options.env } });
    options.children?.push(child);
    let out = '';
    let stdout = '';
    let ready = false;
    const timer = setTimeout(() => reject(new Error(`serve ${args.join(' ')} did not get ready: ${out}`)), options.readyTimeoutMs ?? 60_000);
    const take = (chunk: Buffer, fromStdout: boolean) => {
      const text = chunk.toString();
      out += text;
      options.onOutput?.(text);
      if (ready || !fromStdout) return;
      stdout += text;
      const line = stdout.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line) {
        ready = true;
        clearTimeout(timer);
        const json = JSON.parse(line) as { url: string };
        resolve({ child, url: json.url, ready: json, output: () => out });
      }
    };
    child.stdout!.on('data', (chunk: Buffer) => take(chunk, true));
    child.stderr!.on('data', (chunk: Buffer) => take(chunk, false));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`serve ${args.join(' ')} exited ${code ?? signal}: ${out}`));
    });
  });
}

/** Runs a one-shot command of the compiled CLI `main`; resolves with its first stdout line as JSON. */
export function runCli<T = any>(main: string, args: string[], timeoutMs = 60_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    execFile(process.execPath, [main, ...args], { encoding: 'utf8', timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${args.join(' ')}: ${error.message}\n${stderr}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n')[0]!) as T);
      } catch {
        reject(new Error(`${args.join(' ')}: not JSON: ${stdout}`));
      }
    });
  });
}

/** Whether the child process has not exited yet. */
export const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Sends `signal` to `child` (SIGKILL after 20 s) and resolves with its exit code (null when a signal ended it). */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    if (!running(child)) return resolve(child.exitCode);
    const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(force);
      resolve(code);
    });
    child.kill(signal);
  });
}

/** The lines where a served process logged a 500 ("request failed"): central must never answer one. */
export const requestsFailed = (served: Served) => served.output().split('\n').filter((l) => l.includes('"msg":"request failed"'));

/** Starts `serve --demo --port 0` of that copy on the data dir; resolves when it prints its ready line. */
export async function serveDemo(main: string, dataDir: string, readyTimeoutMs = 30_000): Promise<{ child: ChildProcess; retail: DemoContract }> {
  const { child, ready } = await serveChild(main, ['--demo', '--port', '0', '--data-dir', dataDir], { readyTimeoutMs });
  return { child, retail: (ready.contracts as DemoContract[]).find((c) => c.contractId === 'demo-retail')! };
}

/** An app token of the demo client with the given scopes (client credentials). */
export async function clientToken(c: DemoContract, scopes: readonly string[]): Promise<string> {
  const res = await fetch(c.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `grant_type=client_credentials&scope=${scopes.join(' ')}`,
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
