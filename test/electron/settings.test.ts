import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desktopPaths, ensureFolders, unpackedPath } from '../../app/electron/paths.js';
import { localOrigin } from '../../app/electron/server-process.js';
import { SERVER_ENV } from '../../app/electron/server-options.js';
import { backupSettings, DEFAULT_SETTINGS, DESKTOP_SETTINGS_ENV, loadSettings, saveSettings, serverEnv, serverHost, settingsChange } from '../../app/electron/settings.js';
import { currentSettings, DESKTOP_SETTINGS_ENV as SERVER_SETTINGS_ENV } from '../../server/platform/desktop-settings/file.js';
import { DESKTOP_DEFAULTS } from '../../server/platform/desktop-settings/schema.js';

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

  it('starts the server and what it loads from outside the asar archive', () => {
    expect(unpackedPath('/opt/POS Backoffice/resources/app.asar/dist/main.js', '/')).toBe('/opt/POS Backoffice/resources/app.asar.unpacked/dist/main.js');
    expect(unpackedPath('C:\\Program Files\\POS\\resources\\app.asar\\dist\\electron\\server-guard.cjs', '\\')).toBe('C:\\Program Files\\POS\\resources\\app.asar.unpacked\\dist\\electron\\server-guard.cjs');
    // A development run has no archive.
    expect(unpackedPath('/work/main/dist/main.js', '/')).toBe('/work/main/dist/main.js');
  });
});

describe('desktop settings', () => {
  it('defaults to serving the API to the LAN (the UI to this PC only), starting at login, the default backup folder', () => {
    const { settings, problems } = loadSettings(join(userData, 'desktop-settings.json'));
    expect(settings).toEqual({ lan: true, uiLan: false, startAtLogin: true, backupFolder: null, backupKeep: 14, readyTimeoutSeconds: 60 });
    expect(settings).toEqual(DEFAULT_SETTINGS);
    expect(serverHost(settings)).toBe('0.0.0.0');
    expect(serverHost({ lan: false })).toBe('127.0.0.1');
    expect(problems).toEqual([]);
  });

  it('saves and reads back; the file is private', () => {
    const file = join(userData, 'desktop-settings.json');
    const backups = join(userData, 'elsewhere');
    saveSettings(file, { ...DEFAULT_SETTINGS, port: 8123, lan: false, uiLan: true, startAtLogin: false, backupFolder: backups, backupKeep: 30 });
    expect(loadSettings(file)).toEqual({
      settings: { port: 8123, lan: false, uiLan: true, startAtLogin: false, backupFolder: backups, backupKeep: 30, readyTimeoutSeconds: 60 },
      problems: [],
      oldFormat: false,
    });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false);
  });

  it('falls back to the defaults for a broken file or wrong values, naming each', () => {
    const file = join(userData, 'desktop-settings.json');
    writeFileSync(file, '{not json');
    const broken = loadSettings(file);
    expect(broken.settings).toEqual(DEFAULT_SETTINGS);
    expect(broken.problems[0]).toContain('using the defaults');

    writeFileSync(file, JSON.stringify({ port: 70000, lan: 'yes', uiLan: 1, startAtLogin: null, backupFolder: 'relative/dir', backupKeep: 0, readyTimeoutSeconds: 1 }));
    const wrong = loadSettings(file);
    expect(wrong.settings).toEqual(DEFAULT_SETTINGS);
    expect(wrong.problems).toEqual([
      '[port] must be an integer 1..65535; ignored',
      '[lan] must be true or false; using true',
      '[uiLan] must be true or false; using false',
      '[startAtLogin] must be true or false; using true',
      '[backupFolder] must be an absolute folder path or null; using the default folder',
      '[backupKeep] must be an integer 1..365; using 14',
      '[readyTimeoutSeconds] must be an integer 5..600; using 60',
    ]);
  });

  it('reads a file of the earlier format (host) as serving the LAN, and says so', () => {
    const file = join(userData, 'desktop-settings.json');
    // What the app itself wrote on a first start before issue 21.
    writeFileSync(file, JSON.stringify({ port: 8080, host: '127.0.0.1', uiLan: false, readyTimeoutSeconds: 60 }));
    expect(loadSettings(file)).toEqual({
      settings: { ...DEFAULT_SETTINGS, port: 8080 },
      problems: ['[host] is no longer read: the API serves the LAN unless "lan" is false (the settings screen)'],
      oldFormat: true,
    });
  });

  it('restarts the server for a new port or LAN access, and sets the login item for start at login', () => {
    const base = { ...DEFAULT_SETTINGS, port: 8080 };
    expect(settingsChange(base, { ...base })).toEqual({ restartServer: false, loginItem: false });
    expect(settingsChange(base, { ...base, port: 8081 })).toEqual({ restartServer: true, loginItem: false });
    expect(settingsChange(base, { ...base, lan: false })).toEqual({ restartServer: true, loginItem: false });
    expect(settingsChange(base, { ...base, uiLan: true })).toEqual({ restartServer: true, loginItem: false });
    expect(settingsChange(base, { ...base, startAtLogin: false })).toEqual({ restartServer: false, loginItem: true });
    // The backup folder is read by the backups at their next run: nothing to restart.
    expect(settingsChange(base, { ...base, backupFolder: '/mnt/usb', backupKeep: 3 })).toEqual({ restartServer: false, loginItem: false });
    expect(backupSettings({ ...base, backupFolder: '/mnt/usb', backupKeep: 3 })).toEqual({ folder: '/mnt/usb', keep: 3 });
  });

  it('reads the file by the same rules as the settings screen\'s API writes it', () => {
    // The server side of the file: server/platform/desktop-settings (its own compile, its own copy of the rules).
    expect(DESKTOP_SETTINGS_ENV).toBe(SERVER_SETTINGS_ENV);
    const { readyTimeoutSeconds: _shellOnly, ...shared } = DEFAULT_SETTINGS;
    expect(shared).toEqual(DESKTOP_DEFAULTS);
    const file = join(userData, 'desktop-settings.json');
    const samples: [string, unknown][] = [
      ['port', 0], ['port', 1], ['port', 65535], ['port', 65536], ['port', 80.5], ['port', '8080'],
      ['lan', false], ['lan', 'false'], ['uiLan', true], ['uiLan', 1], ['startAtLogin', false], ['startAtLogin', null],
      ['backupFolder', null], ['backupFolder', join(userData, 'usb')], ['backupFolder', 'usb'], ['backupFolder', 5],
      ['backupKeep', 1], ['backupKeep', 365], ['backupKeep', 0], ['backupKeep', 366], ['backupKeep', '7'],
    ];
    for (const [key, value] of samples) {
      writeFileSync(file, JSON.stringify({ [key]: value }));
      const shell = loadSettings(file).settings as unknown as Record<string, unknown>;
      const server = currentSettings({ [key]: value }) as Record<string, unknown>;
      expect(server[key], `${key}: ${JSON.stringify(value)}`).toEqual(shell[key] ?? null);
    }
  });

  it('drops POS_* variables that would override the settings, keeping the log level, over the server defaults', () => {
    const env = serverEnv({ PATH: '/bin', POS_PORT: '1', POS_HOST: '0.0.0.0', POS_DATA_DIR: '/x', POS_UI_LAN: '1', POS_LOG_LEVEL: 'warn', HOME: '/h' });
    expect(env).toEqual({ ...SERVER_ENV, PATH: '/bin', POS_LOG_LEVEL: 'warn', HOME: '/h' });
    // The settings file for the settings screen's API, and only the shell's own.
    expect(serverEnv({ POS_DESKTOP_SETTINGS: '/x.json' }, '/u/desktop-settings.json')).toEqual({ ...SERVER_ENV, [DESKTOP_SETTINGS_ENV]: '/u/desktop-settings.json' });
    expect(serverEnv({ POS_DESKTOP_SETTINGS: '/x.json' })).toEqual({ ...SERVER_ENV });
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
