// desktop-settings.json: what the desktop app decides about its server. It is the one source of
// that configuration (serverEnv drops the POS_* variables that would override it). The settings
// screen edits it through the server (server/platform/desktop-settings, which gets the file's
// path in POS_DESKTOP_SETTINGS); main.ts watches it and applies a change.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { DEFAULT_BACKUP_SETTINGS, type BackupSettings } from './backups.js';
import { SERVER_ENV } from './server-options.js';

export interface DesktopSettings {
  /**
   * The port chosen at the first start and kept: the register terminals are set up with it, so
   * it never changes by itself (a port another program holds is an error, port.ts).
   */
  port?: number;
  /** Serve the API to the register terminals on the LAN (listen on 0.0.0.0); false: this PC only. */
  lan: boolean;
  /** Serve the back-office UI /ui to the LAN too (serve --ui-lan); off: this PC only. */
  uiLan: boolean;
  /** Start with the user's session (in the tray, without a window). */
  startAtLogin: boolean;
  /** Where the daily backups go; null: <data-dir>/backups (backups.ts). */
  backupFolder: string | null;
  /** How many of its daily backups the app keeps (backups.ts prunes the older ones). */
  backupKeep: number;
  /** How long the server may take to report it is listening (first start migrates the database). */
  readyTimeoutSeconds: number;
}

export const DEFAULT_SETTINGS: DesktopSettings = { lan: true, uiLan: false, startAtLogin: true, backupFolder: DEFAULT_BACKUP_SETTINGS.folder, backupKeep: DEFAULT_BACKUP_SETTINGS.keep, readyTimeoutSeconds: 60 };

/** The variable that tells the server where the settings file is (the settings screen's API). */
export const DESKTOP_SETTINGS_ENV = 'POS_DESKTOP_SETTINGS';

export const isPort = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535;

/** The address the server listens on: every interface for the LAN, else the loopback. */
export const serverHost = (settings: Pick<DesktopSettings, 'lan'>): string => (settings.lan ? '0.0.0.0' : '127.0.0.1');

/**
 * Reads the settings; a missing or broken file, or a wrong value, falls back to the default
 * (reported in `problems`) so a hand-edited file never keeps the app from starting.
 */
export function loadSettings(file: string): { settings: DesktopSettings; problems: string[]; oldFormat: boolean } {
  const problems: string[] = [];
  let raw: unknown = {};
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${file}: ${(error as Error).message}; using the defaults`);
  }
  const input = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const settings: DesktopSettings = { ...DEFAULT_SETTINGS };
  if (input.port !== undefined) {
    if (isPort(input.port)) settings.port = input.port;
    else problems.push(`[port] must be an integer 1..65535; ignored`);
  }
  const flag = (key: 'lan' | 'uiLan' | 'startAtLogin') => {
    if (input[key] === undefined) return;
    if (typeof input[key] === 'boolean') settings[key] = input[key];
    else problems.push(`[${key}] must be true or false; using ${DEFAULT_SETTINGS[key]}`);
  };
  flag('lan');
  flag('uiLan');
  flag('startAtLogin');
  // Before issue 21 the file said `host`, 127.0.0.1 unless edited: the app wrote its own default
  // there, so it says nothing about a choice. The API now serves the LAN unless `lan` says not.
  const oldFormat = input.host !== undefined;
  if (oldFormat) problems.push(`[host] is no longer read: the API serves the LAN unless "lan" is false (the settings screen)`);
  if (input.backupFolder !== undefined && input.backupFolder !== null) {
    if (typeof input.backupFolder === 'string' && isAbsolute(input.backupFolder)) settings.backupFolder = input.backupFolder;
    else problems.push(`[backupFolder] must be an absolute folder path or null; using the default folder`);
  }
  if (input.backupKeep !== undefined) {
    const v = input.backupKeep;
    if (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 365) settings.backupKeep = v as number;
    else problems.push(`[backupKeep] must be an integer 1..365; using ${DEFAULT_SETTINGS.backupKeep}`);
  }
  if (input.readyTimeoutSeconds !== undefined) {
    const v = input.readyTimeoutSeconds;
    if (Number.isInteger(v) && (v as number) >= 5 && (v as number) <= 600) settings.readyTimeoutSeconds = v as number;
    else problems.push(`[readyTimeoutSeconds] must be an integer 5..600; using ${DEFAULT_SETTINGS.readyTimeoutSeconds}`);
  }
  return { settings, problems, oldFormat };
}

/** Written whole through a temporary file, so a crash never leaves half a file. */
export function saveSettings(file: string, settings: DesktopSettings): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/** The backups' part of the settings, as backups.ts takes it. */
export const backupSettings = (s: DesktopSettings): BackupSettings => ({ folder: s.backupFolder, keep: s.backupKeep });

export interface SettingsChange {
  /** Port or LAN access changed: the server must start again to listen anew. */
  restartServer: boolean;
  /** Start at login was turned on or off. */
  loginItem: boolean;
}

/** What a change of the file means for the running app (main.ts applies it). */
export function settingsChange(before: DesktopSettings, after: DesktopSettings): SettingsChange {
  return {
    restartServer: before.port !== after.port || before.lan !== after.lan || before.uiLan !== after.uiLan,
    loginItem: before.startAtLogin !== after.startAtLogin,
  };
}

/**
 * The server's environment: the desktop app's own, without the POS_* variables that would
 * silently change what the settings file says (POS_LOG_LEVEL stays: it only changes logging),
 * over the server's own defaults (SERVER_ENV), and where the settings file is.
 */
export function serverEnv(env: NodeJS.ProcessEnv, settingsFile?: string): Record<string, string> {
  const out: Record<string, string> = { ...SERVER_ENV };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (key.startsWith('POS_') && key !== 'POS_LOG_LEVEL') continue;
    out[key] = value;
  }
  if (settingsFile !== undefined) out[DESKTOP_SETTINGS_ENV] = settingsFile;
  return out;
}
