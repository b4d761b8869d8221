import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../app/electron/port.js';
import { childProcessSpawner, startServer } from '../../app/electron/server-process.js';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const CONFIG_FILE = join(ROOT, 'build', 'electron-builder.config.cjs');
const config = require(CONFIG_FILE) as Record<string, any>;
const PACK = join(ROOT, '.test-dist-electron', 'pack');
const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of [...temps, PACK]) rmSync(dir, { recursive: true, force: true });
  try {
    rmdirSync(join(ROOT, '.test-dist-electron')); // only when the other suite's copy is gone too
  } catch {
    // not empty, or already gone
  }
});

describe('electron-builder configuration', () => {
  it('is valid for electron-builder itself', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as { validateConfiguration(c: unknown, log: { isEnabled: boolean }): Promise<void> };
    await expect(validateConfiguration(config, { isEnabled: false })).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, noSuchOption: 1 }, { isEnabled: false })).rejects.toThrow(/unknown property 'noSuchOption'/);
  });

  it('names the app and starts the compiled shell', () => {
    expect(config.productName).toBe('POS Backoffice');
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z-]+)+$/);
    expect(config.extraMetadata.main).toBe('dist/electron/main.js');
    // The shell compiles there: app/electron/tsconfig.json's outDir + main.ts.
    const shell = JSON.parse(readFileSync(join(ROOT, 'app', 'electron', 'tsconfig.json'), 'utf8')) as { compilerOptions: { outDir: string } };
    expect(resolve(ROOT, 'app', 'electron', shell.compilerOptions.outDir, 'main.js')).toBe(join(ROOT, config.extraMetadata.main));
    expect(existsSync(join(ROOT, 'app', 'electron', 'main.ts'))).toBe(true);
    expect(existsSync(join(ROOT, 'app', 'electron', 'preload.cts'))).toBe(true);
  });

  it('packs the shell, server, migrations and UI, and unpacks better-sqlite3 rebuilt at pack time', () => {
    expect(config.files).toEqual(expect.arrayContaining(['dist/electron/**/*', 'dist/server/**/*', 'dist/sync/**/*', 'dist/server/db/migrations/**/*', 'dist/ui/**/*']));
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(expect.arrayContaining([expect.stringContaining('node_modules/better-sqlite3/')]));
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(false);
  });

  it('builds NSIS for Windows, dmg for macOS, AppImage for Linux', () => {
    const targets = (platform: { target: { target: string }[] }) => platform.target.map((t) => t.target);
    expect(targets(config.win)).toEqual(['nsis']);
    expect(targets(config.mac)).toEqual(['dmg']);
    expect(targets(config.linux)).toEqual(['AppImage']);
  });
});

describe('native modules at pack time only', () => {
  it('finds them in asarUnpack', async () => {
    const tools = await import('../../build/electron-tools.mjs');
    expect(tools.nativeModules(config)).toEqual(['better-sqlite3']);
  });

  it('puts back the Node build after electron-builder rebuilt it in place for Electron', async () => {
    const tools = await import('../../build/electron-tools.mjs');
    const root = temp('pos-native-');
    const release = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(release, { recursive: true });
    writeFileSync(join(release, 'better_sqlite3.node'), 'built for node');
    const restore = tools.keepNativeBuilds(root, ['better-sqlite3', 'not-installed']);
    // What @electron/rebuild leaves: Electron's binary and its "already rebuilt" marker.
    writeFileSync(join(release, 'better_sqlite3.node'), 'built for electron');
    writeFileSync(join(release, '.forge-meta'), 'linux--x64--145');
    restore();
    restore(); // once only (finally and a signal may both call it)
    expect(readFileSync(join(release, 'better_sqlite3.node'), 'utf8')).toBe('built for node');
    expect(existsSync(join(release, '.forge-meta'))).toBe(false);
  });
});

/** Runs a build script where Electron cannot be downloaded, even if a binary is installed here. */
function runOffline(script: string): Promise<{ code: number | null; stderr: string }> {
  const env = {
    ...process.env,
    ELECTRON_MIRROR: 'http://127.0.0.1:9/',
    electron_config_cache: temp('pos-electron-cache-'),
    ELECTRON_OVERRIDE_DIST_PATH: temp('pos-electron-none-'),
    POS_ELECTRON_INSTALL_TIMEOUT_SECONDS: '20',
  };
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [join(ROOT, 'build', script)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stderr });
    });
  });
}

describe('without a downloadable Electron', () => {
  it('npm run electron stops with the clear message', async () => {
    const r = await runOffline('electron-run.mjs');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('npm run electron needs a network that can download Electron from github.com (or ELECTRON_MIRROR)');
  }, 60000);

  it('npm run dist stops with the clear message before building anything', async () => {
    const r = await runOffline('dist.mjs');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('npm run dist needs a network that can download Electron from github.com (or ELECTRON_MIRROR)');
  }, 60000);
});

// A real electron-builder run (Linux dir target) with a stand-in Electron and no rebuild, so it
// needs no network: what lands in app.asar, and that the server runs from the packed files
// with the production dependencies alone.
describe.runIf(process.platform === 'linux')('a packed app', () => {
  it('holds what the app needs and nothing of the dev tools, and its server starts', async () => {
    rmSync(PACK, { recursive: true, force: true });
    mkdirSync(PACK, { recursive: true });
    execFileSync(process.execPath, [join(ROOT, 'build', 'compile.mjs'), '--out-dir', '.test-dist-electron/pack/dist'], { cwd: ROOT, stdio: 'pipe' });
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'app', 'electron', 'tsconfig.json'), '--outDir', join(PACK, 'dist', 'electron')], { cwd: ROOT, stdio: 'pipe' });
    // A stand-in UI (a private copy gets none; test/ui builds the real one).
    mkdirSync(join(PACK, 'dist', 'ui', 'assets'), { recursive: true });
    writeFileSync(join(PACK, 'dist', 'ui', 'index.html'), '<!doctype html><title>stand-in</title><script type="module" src="./assets/index-abc123.js"></script>');
    writeFileSync(join(PACK, 'dist', 'ui', 'assets', 'index-abc123.js'), 'export {};\n');
    cpSync(join(ROOT, 'package.json'), join(PACK, 'package.json'));
    cpSync(join(ROOT, 'package-lock.json'), join(PACK, 'package-lock.json'));
    // Hard links: instant, and nothing is written to them (no rebuild in this run).
    execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(PACK, 'node_modules')]);
    const fakeElectron = temp('pos-fake-electron-');
    mkdirSync(join(fakeElectron, 'resources'));
    writeFileSync(join(fakeElectron, 'electron'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(fakeElectron, 'electron'), 0o755);

    const builder = spawnSync(
      process.execPath,
      [require.resolve('electron-builder/cli.js'), '--projectDir', PACK, '--config', CONFIG_FILE, '--linux', 'dir', '--publish', 'never', `-c.electronDist=${fakeElectron}`, '-c.npmRebuild=false'],
      { cwd: PACK, encoding: 'utf8', timeout: 180000 },
    );
    expect(builder.status, builder.stderr + builder.stdout).toBe(0);

    const resources = join(PACK, 'release', 'linux-unpacked', 'resources');
    const asar = createRequire(require.resolve('app-builder-lib'))('@electron/asar') as {
      listPackage(p: string): string[];
      extractFile(p: string, f: string): Buffer;
      extractAll(p: string, d: string): void;
    };
    const files = asar.listPackage(join(resources, 'app.asar')).map((f) => f.replaceAll('\\', '/'));
    for (const f of ['/dist/electron/main.js', '/dist/electron/preload.cjs', '/dist/server/main.js', '/dist/server/db/migrations/0001_foundation.sql', '/dist/sync/cli.js', '/dist/ui/index.html', '/dist/ui/assets/index-abc123.js', '/node_modules/fastify/package.json', '/node_modules/better-sqlite3/package.json']) {
      expect(files, f).toContain(f);
    }
    for (const dev of ['/node_modules/electron', '/node_modules/electron-builder', '/node_modules/vite', '/node_modules/typescript', '/node_modules/react', '/node_modules/vitest', '/dist/electron/package.json']) {
      expect(files.filter((f) => f === dev || f.startsWith(`${dev}/`)), dev).toEqual([]);
    }
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(existsSync(join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
    const pkg = JSON.parse(asar.extractFile(join(resources, 'app.asar'), 'package.json').toString()) as Record<string, unknown>;
    expect(pkg).toMatchObject({ main: 'dist/electron/main.js', type: 'module', productName: 'POS Backoffice' });

    // Electron reads app.asar with app.asar.unpacked laid over it; so does this copy.
    const app = temp('pos-packed-app-');
    asar.extractAll(join(resources, 'app.asar'), app);
    cpSync(join(resources, 'app.asar.unpacked'), app, { recursive: true });
    const server = await startServer({
      spawn: childProcessSpawner(join(app, 'dist', 'server', 'main.js')),
      dataDir: join(temp('pos-packed-data-'), 'data'),
      port: await freePort('127.0.0.1'),
      host: '127.0.0.1',
      readyTimeoutMs: 30000,
    });
    try {
      expect((await fetch(`${server.origin}/health`)).status).toBe(200);
      expect((await fetch(server.uiUrl)).status).toBe(200);
      expect((await fetch(`${server.uiUrl}assets/index-abc123.js`)).status).toBe(200);
    } finally {
      expect(await server.stop(10000)).toBe('stopped');
    }
  }, 300000);
});
