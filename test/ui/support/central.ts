import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDistBuilt, ROOT } from './build.js';

const MAIN = join(ROOT, 'dist/main.js');
const READY_TIMEOUT_MS = 30_000;
const env = () => ({ ...process.env, POS_LOG_LEVEL: 'warn', POS_HOST: '127.0.0.1' });

/** Runs a one-shot CLI command on a data dir; returns its JSON lines. */
export function cli(dataDir: string, args: string[]): Record<string, unknown>[] {
  const out = execFileSync(process.execPath, [MAIN, ...args, '--data-dir', dataDir], { cwd: ROOT, env: env(), encoding: 'utf8', timeout: 30_000 });
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A head-office server (`serve --role central`) that a test can stop and start again on the same port. */
export interface Central {
  url: string;
  dataDir: string;
  /** The node secret `node add` printed for the store. */
  secret: string;
  running(): boolean;
  /** SIGTERM and wait for the exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** Serves again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its data dir. */
  dispose(): Promise<void>;
  output(): string;
}

/**
 * Head office for one contract, as README "Sync with head office" sets it up: `contract create`,
 * `node add` (its secret is what the store links with), then `serve --role central --port 0`.
 */
export async function startCentral(options: { contractId: string; plan: string; node: number }): Promise<Central> {
  await ensureDistBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-ui-central-'));
  let child: ChildProcess | null = null;
  let out = '';
  try {
    cli(dataDir, ['contract', 'create', '--id', options.contractId, '--plan', options.plan]);
    const [added] = cli(dataDir, ['node', 'add', '--contract', options.contractId, '--node', String(options.node)]);
    const secret = String(added?.secret ?? '');
    if (!secret) throw new Error('node add printed no secret');

    const serve = async (port: number): Promise<string> => {
      const proc = spawn(process.execPath, [MAIN, 'serve', '--role', 'central', '--port', String(port), '--data-dir', dataDir], {
        cwd: ROOT,
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      // A restart's ready line, not the first run's.
      const from = out.length;
      proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      return readyUrl(proc, () => out.slice(from));
    };

    const url = await serve(0);
    const port = Number(new URL(url).port);
    const central: Central = {
      url,
      dataDir,
      secret,
      running: () => !!child && child.exitCode === null && child.signalCode === null,
      stop: () => (child ? stopChild(child) : Promise.resolve()),
      start: async () => {
        await serve(port);
      },
      dispose: async () => {
        if (child) await stopChild(child);
        rmSync(dataDir, { recursive: true, force: true });
      },
      output: () => out,
    };
    return central;
  } catch (error) {
    if (child) await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`central did not start: ${(error as Error).message}\n${out}`);
  }
}

/** Links a store's data dir to head office (`pos-backoffice link`); the serving store's scheduler picks the link up. */
export function linkStore(storeDataDir: string, central: Central, contractId: string, node: number): void {
  cli(storeDataDir, ['link', '--central', central.url, '--contract', contractId, '--node', String(node), '--secret', central.secret]);
}

function readyUrl(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`not ready in ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    const onData = () => {
      const line = output()
        .split('\n')
        .find((l) => l.startsWith('{"ready":true'));
      if (line) finish(undefined, (JSON.parse(line) as { url: string }).url);
    };
    const onExit = (code: number | null) => finish(new Error(`exited (${code}) before it was ready`));
    function finish(error?: Error, url?: string) {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(url!);
    }
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
    onData();
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
