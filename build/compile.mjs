// Compiles the TypeScript server to dist/ and bundles the SQL migrations beside the
// compiled migrator, then builds the back-office UI (app/ui, Vite) into dist/ui, so
// `npx pos-backoffice` serves a working /ui right after `npm install` (prepare).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, chmodSync, existsSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// --out-dir DIR (relative to the project) lets tests build a private copy of the server beside
// dist/; such a copy gets the UI only with --ui (those tests start servers, not browsers).
const outArg = process.argv.indexOf('--out-dir');
const withUi = outArg < 0 || process.argv.includes('--ui');
const finalDir = join(root, outArg > 0 ? process.argv[outArg + 1] : 'dist');
// Built beside the target and swapped in at the end, so a server or test already running from
// the old copy never sees a half-built one (an empty dist/ui, a missing module).
const outDir = `${finalDir}.building-${process.pid}`;
const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  console.error('build: typescript is not installed; run `npm install` first');
  process.exit(1);
}

rmSync(outDir, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--outDir', outDir], { stdio: 'inherit', cwd: root });
} catch {
  console.error('build: the TypeScript compile failed (see above)');
  rmSync(outDir, { recursive: true, force: true });
  process.exit(1);
}
cpSync(join(root, 'server/db/migrations'), join(outDir, 'server/db/migrations'), { recursive: true });
// The CLI entry (package.json "bin"), run by its #! line.
const bin = join(outDir, 'main.js');
if (existsSync(bin)) chmodSync(bin, 0o755);

if (withUi) await buildUi();
swapIn();

function swapIn() {
  const old = `${finalDir}.old-${process.pid}`;
  if (existsSync(finalDir)) renameSync(finalDir, old);
  renameSync(outDir, finalDir);
  rmSync(old, { recursive: true, force: true });
}

async function buildUi() {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    // A production install (npm ci --omit=dev) has no Vite: the server then answers /ui with a 503 saying so.
    console.warn('build: vite is not installed; the back-office UI (dist/ui) was not built');
    return;
  }
  // A build started from a test run inherits NODE_ENV=test, which would give React's development build.
  process.env.NODE_ENV = 'production';
  try {
    await vite.build({ configFile: join(root, 'app/ui/vite.config.ts'), mode: 'production', build: { outDir: join(outDir, 'ui') }, logLevel: 'warn' });
  } catch (error) {
    console.error(`build: the UI build failed: ${error?.message ?? error}`);
    rmSync(outDir, { recursive: true, force: true });
    process.exit(1);
  }
}
