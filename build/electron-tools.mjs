// Shared by build/electron-run.mjs and build/dist.mjs: the Electron binary, the shell's compile,
// and the checks that the compiled app is complete.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SHELL_OUT = join(ROOT, 'dist', 'electron');
const require = createRequire(import.meta.url);

/** Prints the reason and exits 1: every failure of these scripts ends here. */
export function fail(message) {
  console.error(`${message}`);
  process.exit(1);
}

/**
 * Makes sure node_modules/electron has its binary. package.json keeps electron's install script
 * off ("allowScripts"), so the binary is fetched here, on demand, by electron's own install.js
 * (github.com, or ELECTRON_MIRROR; cached under ~/.cache/electron), bounded by a timeout so an
 * unreachable network ends with the clear message rather than a hang.
 */
export function ensureElectronBinary(command, { timeoutMs = Number(process.env.POS_ELECTRON_INSTALL_TIMEOUT_SECONDS ?? 600) * 1000 } = {}) {
  const install = join(ROOT, 'node_modules', 'electron', 'install.js');
  const clear = `${command} needs a network that can download Electron from github.com (or ELECTRON_MIRROR)`;
  if (!existsSync(install)) fail(`${command}: the electron package is not installed; run \`npm install\` first`);
  // ELECTRON_SKIP_BINARY_DOWNLOAD would make install.js succeed without a binary; this script is asked for one.
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const r = spawnSync(process.execPath, [install], { cwd: ROOT, env, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' });
  const binary = electronBinary();
  if (r.status === 0 && binary !== null) return binary;
  const why = r.error?.code === 'ETIMEDOUT' ? `the download did not finish within ${Math.round(timeoutMs / 1000)} s` : firstErrorLine(`${r.stderr ?? ''}${r.stdout ?? ''}`);
  fail(`${clear}.\n  The Electron binary could not be installed: ${why || 'no binary after node_modules/electron/install.js'}.\n  Set ELECTRON_MIRROR to a reachable mirror, or run on a machine with access to github.com, and try again.`);
}

/** The binary's path when it is present (electron's index.js honours ELECTRON_OVERRIDE_DIST_PATH), else null. */
export function electronBinary() {
  try {
    delete require.cache[require.resolve('electron')];
    const path = require('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

function firstErrorLine(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => /error|ENOTFOUND|ECONN|EAI_AGAIN|ETIMEDOUT|\b[45]\d\d\b/i.test(l)) ?? lines[0] ?? '';
}

/** Runs a project script with this Node; exits on failure. */
export function runNode(args, what) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) fail(`${what} failed (see above)`);
}

/** Compiles app/electron to dist/electron (main ESM, preload CommonJS). */
export function compileShell() {
  let tsc;
  try {
    tsc = require.resolve('typescript/bin/tsc');
  } catch {
    fail('typescript is not installed; run `npm install` first');
  }
  rmSync(SHELL_OUT, { recursive: true, force: true });
  runNode([tsc, '-p', join(ROOT, 'app', 'electron', 'tsconfig.json'), '--outDir', SHELL_OUT], 'compiling the Electron shell (app/electron)');
}

/**
 * A package.json beside the compiled shell, so `electron dist/electron` runs it as an ES module
 * under its own name: a development run keeps its data apart from an installed app's
 * ("POS Backoffice Dev" vs "POS Backoffice" under the user's app-data folder).
 */
export function writeDevPackageJson() {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const pkg = { name: 'pos-backoffice-dev', productName: 'POS Backoffice Dev', version, type: 'module', main: 'main.js', private: true };
  writeFileSync(join(SHELL_OUT, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}

/** The files the packaged app cannot do without; returns those missing. */
export function missingOutputs({ ui }) {
  const needed = ['dist/main.js', 'dist/server/db/migrations', 'dist/electron/main.js', 'dist/electron/preload.cjs', ...(ui ? ['dist/ui/index.html'] : [])];
  return needed.filter((p) => !existsSync(join(ROOT, p)));
}

/** The native modules of an electron-builder config: those it unpacks from the asar. */
export function nativeModules(config) {
  return [...new Set((config.asarUnpack ?? []).map((p) => /node_modules\/((?:@[^/]+\/)?[^/*]+)/.exec(p)?.[1]).filter(Boolean))];
}

/**
 * electron-builder rebuilds native modules for Electron in place, in the project's own
 * node_modules, and marks them rebuilt (build/Release/.forge-meta); the server and the tests run
 * them in Node. Their build folders are copied aside now; the returned function puts them back
 * exactly (once, whatever happened in between), so Electron's build exists at pack time only.
 */
export function keepNativeBuilds(root, names) {
  const saved = mkdtempSync(join(tmpdir(), 'pos-dist-native-'));
  const kept = [];
  for (const name of names) {
    const build = join(root, 'node_modules', name, 'build');
    if (!existsSync(build)) continue;
    cpSync(build, join(saved, name), { recursive: true });
    kept.push(name);
  }
  let restored = false;
  return function restore() {
    if (restored) return;
    restored = true;
    for (const name of kept) {
      const build = join(root, 'node_modules', name, 'build');
      rmSync(build, { recursive: true, force: true });
      cpSync(join(saved, name), build, { recursive: true });
    }
    rmSync(saved, { recursive: true, force: true });
  };
}

/**
 * The Node @electron/rebuild asks for (its package.json "engines"): both `npm run electron` and
 * `npm run dist` build better-sqlite3 for Electron with it. The server and the tests run on 20.
 */
export const REBUILD_NODE = '22.12.0';

/** True when `version` (x.y.z) is older than `required`. */
export function nodeOlderThan(version, required = REBUILD_NODE) {
  const a = version.replace(/^v/, '').split('.').map(Number);
  const b = required.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

/** Stops at once, before anything is downloaded or built, on a Node @electron/rebuild refuses. */
export function requireRebuildNode(command, version = process.versions.node) {
  if (!nodeOlderThan(version)) return;
  fail(
    `${command} needs Node ${REBUILD_NODE} or newer; this is Node ${version}.\n  @electron/rebuild, which builds better-sqlite3 for Electron, requires it (the server and npm test run on Node 20).\n  Switch Node (e.g. nvm use 22) and try again.`,
  );
}

/** The installed Electron's version (node_modules/electron/package.json). */
export function electronVersion(root = ROOT) {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
}

/**
 * Puts Electron's build of the native modules in place for a development run and returns the
 * function that puts the Node build back (npm test and the server need it). Electron's build is
 * kept in node_modules/.cache/pos-electron-native/<electron version>-<platform>-<arch>, so
 * @electron/rebuild (`rebuild`, which fetches a prebuilt binary or compiles) runs once per
 * Electron version, not at every start.
 */
export async function useElectronBuilds(root, names, version, rebuild) {
  const cache = join(root, 'node_modules', '.cache', 'pos-electron-native', `${version}-${process.platform}-${process.arch}`);
  const restore = keepNativeBuilds(root, names);
  try {
    const missing = names.filter((name) => !existsSync(join(cache, name)));
    if (missing.length > 0) {
      await rebuild({ buildPath: root, electronVersion: version, onlyModules: missing, force: true });
      for (const name of missing) cpSync(join(root, 'node_modules', name, 'build'), join(cache, name), { recursive: true });
    }
    for (const name of names) {
      const build = join(root, 'node_modules', name, 'build');
      rmSync(build, { recursive: true, force: true });
      cpSync(join(cache, name), build, { recursive: true });
    }
  } catch (error) {
    restore();
    throw error;
  }
  return restore;
}

/** @electron/rebuild's rebuild(), from electron-builder's own dependency. */
export async function electronRebuild() {
  const builderLib = dirname(require.resolve('app-builder-lib/package.json'));
  const entry = createRequire(join(builderLib, 'package.json')).resolve('@electron/rebuild');
  const { rebuild } = await import(pathToFileURL(entry).href);
  return (options) => rebuild(options);
}
