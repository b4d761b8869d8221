// desktop-settings.json, as the desktop app's server sees it: the shell names the file in
// POS_DESKTOP_SETTINGS when it starts the server and watches it for changes (a new port or LAN
// access restarts the server). Keys this module does not manage (readyTimeoutSeconds, ...) are
// kept as they are.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { DESKTOP_DEFAULTS, desktopSettingsBody, type DesktopSettingsBody } from './schema.js';

/** The variable the desktop shell sets (app/electron/settings.ts DESKTOP_SETTINGS_ENV). */
export const DESKTOP_SETTINGS_ENV = 'POS_DESKTOP_SETTINGS';

export function desktopSettingsFile(env: NodeJS.ProcessEnv = process.env): string | null {
  const file = env[DESKTOP_SETTINGS_ENV];
  return file && isAbsolute(file) ? file : null;
}

export function readRaw(file: string): Record<string, unknown> {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  } catch {
    // Missing or broken: the shell uses its defaults then, and so does this view.
    return {};
  }
}

/** The file's values, each wrong or missing one as the shell reads it: its default. */
export function currentSettings(raw: Record<string, unknown>): Omit<DesktopSettingsBody, 'port'> & { port: number | null } {
  const shape = desktopSettingsBody.shape;
  const pick = <K extends keyof DesktopSettingsBody>(key: K, fallback: DesktopSettingsBody[K] | null) => {
    const parsed = shape[key].safeParse(raw[key]);
    return parsed.success ? (parsed.data as DesktopSettingsBody[K]) : fallback;
  };
  const folder = pick('backupFolder', null);
  return {
    port: pick('port', null),
    lan: pick('lan', DESKTOP_DEFAULTS.lan)!,
    uiLan: pick('uiLan', DESKTOP_DEFAULTS.uiLan)!,
    startAtLogin: pick('startAtLogin', DESKTOP_DEFAULTS.startAtLogin)!,
    backupFolder: folder !== null && isAbsolute(folder) ? folder : null,
    backupKeep: pick('backupKeep', DESKTOP_DEFAULTS.backupKeep)!,
  };
}

/**
 * Writes the settings over the file's other keys, whole through a temporary file (the shell
 * never reads half a file). `host`, the earlier format's key, is dropped: `lan` replaces it.
 */
export function writeSettings(file: string, raw: Record<string, unknown>, settings: DesktopSettingsBody): void {
  const { host: _replaced, ...kept } = raw;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ ...kept, ...settings }, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}
