import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desktopPaths, ensureFolders, rotateLog } from '../../app/electron/paths.js';
import { SERVER_ENV } from '../../app/electron/server-options.js';
import { DEFAULT_SETTINGS, loadSettings, localOrigin, saveSettings, serverEnv } from '../../app/electron/settings.js';

let userData: string;
beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'pos-electron-'));
});
afterEach(() => rmSync(userData, { recursive: true, force: true }));

describe('data dir and files under userData', () => {
  it('puts the data, settings and log under userData and creates the folders private', () => {
    const paths = desktopPaths(userData);
    expect(paths).toEqual({
      dataDir: join(userData, 'data'),
      settingsFile: join(userData, 'desktop-settings.json'),
      logFile: join(userData, 'logs', 'server.log'),
    });
    ensureFolders(paths);
    expect(statSync(paths.dataDir).isDirectory()).toBe(true);
    if (process.platform !== 'win32') expect(statSync(paths.dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(userData, 'logs')).isDirectory()).toBe(true);
    ensureFolders(paths); // a second start finds them
  });

  it('keeps one previous log once it grows over the limit', () => {
    const file = join(userData, 'server.log');
    expect(rotateLog(file, 10)).toBe(false);
    writeFileSync(file, 'short\n');
    expect(rotateLog(file, 10)).toBe(false);
    writeFileSync(file, 'a line longer than ten bytes\n');
    expect(rotateLog(file, 10)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(`${file}.1`, 'utf8')).toContain('longer');
  });
});

describe('desktop settings', () => {
  it('defaults to this PC only with no file', () => {
    const { settings, problems } = loadSettings(join(userData, 'desktop-settings.json'));
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(settings.host).toBe('127.0.0.1');
    expect(settings.uiLan).toBe(false);
    expect(problems).toEqual([]);
  });

  it('saves and reads back; the file is private', () => {
    const file = join(userData, 'desktop-settings.json');
    saveSettings(file, { ...DEFAULT_SETTINGS, port: 8123, host: '0.0.0.0', uiLan: true });
    expect(loadSettings(file)).toEqual({ settings: { port: 8123, host: '0.0.0.0', uiLan: true, readyTimeoutSeconds: 60 }, problems: [] });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  it('falls back to the defaults for a broken file or wrong values, naming each', () => {
    const file = join(userData, 'desktop-settings.json');
    writeFileSync(file, '{not json');
    const broken = loadSettings(file);
    expect(broken.settings).toEqual(DEFAULT_SETTINGS);
    expect(broken.problems[0]).toContain('using the defaults');

    writeFileSync(file, JSON.stringify({ port: 70000, host: 'bad host!', uiLan: 'yes', readyTimeoutSeconds: 1 }));
    const wrong = loadSettings(file);
    expect(wrong.settings).toEqual(DEFAULT_SETTINGS);
    expect(wrong.problems.map((p) => p.slice(0, p.indexOf(']') + 1))).toEqual(['[port]', '[host]', '[uiLan]', '[readyTimeoutSeconds]']);
  });

  it('drops POS_* variables that would override the settings, keeping the log level, over the server defaults', () => {
    const env = serverEnv({ PATH: '/bin', POS_PORT: '1', POS_HOST: '0.0.0.0', POS_DATA_DIR: '/x', POS_UI_LAN: '1', POS_LOG_LEVEL: 'warn', HOME: '/h' });
    expect(env).toEqual({ ...SERVER_ENV, PATH: '/bin', POS_LOG_LEVEL: 'warn', HOME: '/h' });
    // A value the user set on purpose wins over the default.
    expect(serverEnv({ MALLOC_MMAP_THRESHOLD_: '65536' }).MALLOC_MMAP_THRESHOLD_).toBe('65536');
  });

  it('reaches a wildcard listener through the loopback address', () => {
    expect(localOrigin('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080');
    expect(localOrigin('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080');
    expect(localOrigin('::', 8080)).toBe('http://127.0.0.1:8080');
    expect(localOrigin('192.168.1.20', 9000)).toBe('http://192.168.1.20:9000');
    expect(localOrigin('::1', 9000)).toBe('http://[::1]:9000');
  });
});
