import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../app/electron/port.js';
import { childProcessSpawner, startServer, type RunningServer } from '../../app/electron/server-process.js';

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

  it('packs the shell, server, migrations, UI and icons; unpacks all the server process loads, better-sqlite3 rebuilt at pack time', () => {
    expect(config.files).toEqual(expect.arrayContaining(['dist/electron/**/*', 'dist/main.js', 'dist/server/**/*', 'dist/sync/**/*', 'dist/server/db/migrations/**/*', 'dist/ui/**/*', 'build/icons/**/*']));
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual([
      'package.json',
      'dist/main.js',
      'dist/server/**/*',
      'dist/sync/**/*',
      'dist/ui/**/*',
      'dist/electron/server-guard.cjs',
      'build/icons/**/*',
      '**/node_modules/better-sqlite3/**/*',
      '**/node_modules/**/*',
    ]);
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(false);
  });

  it('builds NSIS for Windows, dmg for macOS, AppImage and deb for Linux, each with the app\'s icon', () => {
    const targets = (platform: { target: { target: string }[] }) => platform.target.map((t) => t.target);
    expect(targets(config.win)).toEqual(['nsis']);
    expect(targets(config.mac)).toEqual(['dmg']);
    expect(targets(config.linux)).toEqual(['AppImage', 'deb']);
    for (const platform of [config.win, config.mac, config.linux]) expect(platform.icon).toBe('build/icons/icon.png');
    expect(config.linux.maintainer).toBeTruthy();
  });
});

describe('icons', () => {
  const size = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

  it('are committed as build/icons.mjs draws them: the installers\' icon and the tray\'s three states at 1x and 2x', async () => {
    const { allIcons } = await import('../../build/icons.mjs');
    const icons = allIcons();
    expect(Object.keys(icons).sort()).toEqual(['icon.png', 'tray-error.png', 'tray-error@2x.png', 'tray-ok.png', 'tray-ok@2x.png', 'tray-warn.png', 'tray-warn@2x.png']);
    for (const [name, png] of Object.entries(icons)) {
      const committed = readFileSync(join(ROOT, 'build', 'icons', name));
      expect(committed.equals(png), `build/icons/${name} is stale: run node build/icons.mjs`).toBe(true);
      expect(committed.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect(size(committed), name).toEqual(name === 'icon.png' ? [1024, 1024] : name.includes('@2x') ? [32, 32] : [16, 16]);
    }
    // The tray icons the shell asks for (app/electron/tray.ts TrayIcon).
    for (const state of ['ok', 'warn', 'error']) expect(existsSync(join(ROOT, 'build', 'icons', `tray-${state}.png`))).toBe(true);
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
function runOffline(script: string | null, code?: string): Promise<{ code: number | null; stderr: string }> {
  const env = {
    ...process.env,
    ELECTRON_MIRROR: 'http://127.0.0.1:9/',
    electron_config_cache: temp('pos-electron-cache-'),
    ELECTRON_OVERRIDE_DIST_PATH: temp('pos-electron-none-'),
    POS_ELECTRON_INSTALL_TIMEOUT_SECONDS: '20',
  };
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, script ? [join(ROOT, 'build', script)] : ['--input-type=module', '-e', code!], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stderr });
    });
  });
}

const tools = () => import('../../build/electron-tools.mjs');
/** This Node is older than @electron/rebuild accepts: the scripts stop before the network. */
const OLD_NODE = (await tools()).nodeOlderThan(process.versions.node);

describe('Node for packaging', () => {
  it('compares versions as @electron/rebuild asks (22.12 or newer)', async () => {
    const { nodeOlderThan, REBUILD_NODE } = await tools();
    expect(REBUILD_NODE).toBe('22.12.0');
    const rebuildMain = createRequire(require.resolve('app-builder-lib')).resolve('@electron/rebuild');
    const rebuildEngines = (JSON.parse(readFileSync(join(rebuildMain, '..', '..', 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(rebuildEngines).toBe(`>=${REBUILD_NODE}`);
    expect(nodeOlderThan('20.20.2')).toBe(true);
    expect(nodeOlderThan('22.11.9')).toBe(true);
    expect(nodeOlderThan('v22.12.0')).toBe(false);
    expect(nodeOlderThan('24.1.0')).toBe(false);
  });

  it.runIf(OLD_NODE)('npm run dist and npm run electron stop up front on an older Node, saying which', async () => {
    for (const [script, command] of [
      ['dist.mjs', 'npm run dist'],
      ['electron-run.mjs', 'npm run electron'],
    ]) {
      const r = await runOffline(script);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `${command} needs Node 22.12.0 or newer; this is Node ${process.versions.node}.\n  @electron/rebuild, which builds better-sqlite3 for Electron, requires it (the server and npm test run on Node 20).\n  Switch Node (e.g. nvm use 22) and try again.\n`,
      );
    }
  }, 60000);
});

describe('without a downloadable Electron', () => {
  it('the Electron binary check stops with the clear message', async () => {
    const r = await runOffline(null, "import('./build/electron-tools.mjs').then((t) => t.ensureElectronBinary('npm run electron'))");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('npm run electron needs a network that can download Electron from github.com (or ELECTRON_MIRROR)');
    expect(r.stderr).toContain('Set ELECTRON_MIRROR to a reachable mirror, or run on a machine with access to github.com, and try again.');
  }, 60000);

  it.runIf(!OLD_NODE)('npm run electron and npm run dist stop with the clear message before building anything', async () => {
    for (const [script, command] of [
      ['electron-run.mjs', 'npm run electron'],
      ['dist.mjs', 'npm run dist'],
    ]) {
      const r = await runOffline(script);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${command} needs a network that can download Electron from github.com (or ELECTRON_MIRROR)`);
    }
  }, 90000);
});

describe('better-sqlite3 for a development run', () => {
  it('swaps in Electron\'s build, made once per Electron version, and puts the Node build back', async () => {
    const { useElectronBuilds } = await tools();
    const root = temp('pos-electron-native-');
    const release = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(release, { recursive: true });
    writeFileSync(join(release, 'better_sqlite3.node'), 'built for node');
    const calls: unknown[] = [];
    const rebuild = async (options: { buildPath: string; electronVersion: string; onlyModules: string[]; force: boolean }) => {
      calls.push(options);
      writeFileSync(join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), `built for electron ${options.electronVersion}`);
    };
    const read = () => readFileSync(join(release, 'better_sqlite3.node'), 'utf8');

    const restore = await useElectronBuilds(root, ['better-sqlite3'], '41.7.1', rebuild);
    expect(read()).toBe('built for electron 41.7.1');
    expect(calls).toEqual([{ buildPath: root, electronVersion: '41.7.1', onlyModules: ['better-sqlite3'], force: true }]);
    restore();
    expect(read()).toBe('built for node');

    // The next run takes the cached build: no rebuild.
    const again = await useElectronBuilds(root, ['better-sqlite3'], '41.7.1', rebuild);
    expect(read()).toBe('built for electron 41.7.1');
    expect(calls).toHaveLength(1);
    again();
    expect(read()).toBe('built for node');

    // A failed rebuild leaves the Node build in place.
    const failing = async () => {
      writeFileSync(join(release, 'better_sqlite3.node'), 'half built');
      throw new Error('no network');
    };
    await expect(useElectronBuilds(root, ['better-sqlite3'], '42.0.0', failing)).rejects.toThrow('no network');
    expect(read()).toBe('built for node');
  });
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
    cpSync(join(ROOT, 'build', 'icons'), join(PACK, 'build', 'icons'), { recursive: true });
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
    for (const f of ['/dist/electron/main.js', '/dist/electron/preload.cjs', '/dist/main.js', '/dist/server/db/migrations/0001_foundation.sql', '/dist/sync/cli.js', '/dist/ui/index.html', '/dist/ui/assets/index-abc123.js', '/node_modules/fastify/package.json', '/node_modules/better-sqlite3/package.json']) {
      expect(files, f).toContain(f);
    }
    for (const dev of ['/node_modules/electron', '/node_modules/electron-builder', '/node_modules/vite', '/node_modules/typescript', '/node_modules/react', '/node_modules/vitest', '/dist/electron/package.json']) {
      expect(files.filter((f) => f === dev || f.startsWith(`${dev}/`)), dev).toEqual([]);
    }
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(existsSync(join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
    const pkg = JSON.parse(asar.extractFile(join(resources, 'app.asar'), 'package.json').toString()) as Record<string, unknown>;
    expect(pkg).toMatchObject({ main: 'dist/electron/main.js', type: 'module', productName: 'POS Backoffice' });

    // Only the shell stays in the archive; everything the server process loads is unpacked.
    const unpacked = join(resources, 'app.asar.unpacked');
    for (const f of ['package.json', 'dist/main.js', 'dist/server/jobs/csv-export/worker.js', 'dist/server/jobs/csv-export/csv-thread.js', 'dist/server/db/migrations/0001_foundation.sql', 'dist/sync/cli.js', 'dist/ui/index.html', 'dist/electron/server-guard.cjs', 'build/icons/tray-ok.png', 'node_modules/fastify/package.json', 'node_modules/csv-stringify/package.json']) {
      expect(existsSync(join(unpacked, f)), f).toBe(true);
    }
    for (const f of ['dist/electron/main.js', 'dist/electron/preload.cjs']) expect(existsSync(join(unpacked, f)), f).toBe(false);
    expect(JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'))).toMatchObject({ type: 'module' });

    // The server as the app starts it (main.ts: app.asar.unpacked, the guard), by plain Node,
    // which cannot read an asar archive: whatever it loads, it loads from the unpacked files.
    const dataDir = join(temp('pos-packed-data-'), 'data');
    const server = await startServer({
      spawn: childProcessSpawner(join(unpacked, 'dist', 'main.js'), { guard: join(unpacked, 'dist', 'electron', 'server-guard.cjs') }),
      dataDir,
      port: await freePort('127.0.0.1'),
      host: '127.0.0.1',
      demo: true,
      readyTimeoutMs: 30000,
    });
    try {
      expect((await fetch(`${server.origin}/health`)).status).toBe(200);
      expect((await fetch(server.uiUrl)).status).toBe(200);
      expect((await fetch(`${server.uiUrl}assets/index-abc123.js`)).status).toBe(200);
      await exportThroughWorkers(server);
    } finally {
      // Gracefully, with room for a loaded machine: the export's two worker threads end first. It
      // stops in about 30 ms. It used to hang when the stop came while the download's answer was
      // still finishing: fetch kept that connection alive for 72 s (server/platform/http/shutdown.ts);
      // a failure carries the time and the server's last lines.
      const asked = Date.now();
      const how = await server.stop(60000);
      expect(how, `after ${Date.now() - asked} ms; the server's last lines:\n${[...server.stdoutTail(), ...server.stderrTail()].join('\n')}`).toBe('stopped');
    }
  }, 300000);
});

interface DemoLine {
  contracts: { contractId: string; clientId: string; clientSecret: string; tokenUrl: string }[];
}

/**
 * A transaction detail CSV export through the API: the export runs in a worker thread and
 * quotes in a second one (server/jobs/csv-export), each loaded by file name from the server's
 * folder, the part of a packed app that never ran from inside app.asar.
 */
async function exportThroughWorkers(server: RunningServer): Promise<void> {
  const demo = (server.ready as unknown as DemoLine).contracts.find((c) => c.contractId === 'demo-retail')!;
  const grant = await fetch(demo.tokenUrl, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${demo.clientId}:${demo.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const token = ((await grant.json()) as { access_token: string }).access_token;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.origin}/demo-retail/pos${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as Record<string, any>;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
  const store = await api('POST', '/stores', { storeName: 'Packed', storeCode: 'PACK-1' });
  await api('POST', '/transactions', {
    storeId: store.storeId,
    sumDivision: '2',
    sumDate: day,
    transactionHeadDivision: '1',
    terminalTranDateTime: new Date().toISOString(),
    details: [{ transactionDetailId: '1', productName: 'Tee "packed", white', salesPrice: '2500', quantity: '2' }],
  });
  const { requestCode } = await api('POST', '/transactions/details/out_file_async', { transactionDateTimeFrom: `${day}T00:00:00+09:00`, transactionDateTimeTo: `${day}T23:59:59+09:00` });
  let progress: Record<string, any> = {};
  for (let i = 0; i < 100 && progress.status !== 'succeeded' && progress.status !== 'failed'; i += 1) {
    await new Promise((r) => setTimeout(r, 200));
    progress = await api('GET', `/transactions/details/out_file_async/${requestCode}`);
  }
  expect(progress.status, `${JSON.stringify(progress)}\n${[...server.stderrTail(), ...server.stdoutTail()].join('\n')}`).toBe('succeeded');
  const file = await fetch(progress.fileUrl as string);
  expect(file.status).toBe(200);
  const csv = gunzipSync(Buffer.from(await file.arrayBuffer())).toString('utf8');
  expect(csv).toContain('"Tee ""packed"", white"');
}
