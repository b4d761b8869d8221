import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * The compiled server in its own process, for tests that SIGKILL it: a private compiled copy
 * (`build/compile.mjs --out-dir`, so a build of dist/ elsewhere never swaps it mid-test) and
 * `serve --demo` on a data dir, with the demo-retail contract from its ready line.
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

/** Starts `serve --demo --port 0` of that copy on the data dir; resolves when it prints its ready line. */
export function serveDemo(main: string, dataDir: string, readyTimeoutMs = 30_000): Promise<{ child: ChildProcess; retail: DemoContract }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, 'serve', '--demo', '--port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, POS_LOG_LEVEL: 'warn' },
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not get ready: ${out} ${err}`)), readyTimeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line) {
        clearTimeout(timer);
        const ready = JSON.parse(line) as { contracts: DemoContract[] };
        resolve({ child, retail: ready.contracts.find((c) => c.contractId === 'demo-retail')! });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
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
