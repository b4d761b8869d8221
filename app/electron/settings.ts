// desktop-settings.json: the few things the desktop app decides about its server. It is the
// one source of that configuration (serverEnv drops the POS_* variables that would override it).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { SERVER_ENV } from './server-options.js';

export interface DesktopSettings {
  /** The port the server listened on last; reused so bookmarks and LAN terminals keep working. */
  port?: number;
  /** 127.0.0.1 (default: this PC only) or 0.0.0.0 to serve the API to the register terminals on the LAN. */
  host: string;
  /** Serve the back-office UI /ui to the LAN too (serve --ui-lan); off by default. */
  uiLan: boolean;
  /** How long the server may take to report it is listening (first start migrates the database). */
  readyTimeoutSeconds: number;
}

export const DEFAULT_SETTINGS: DesktopSettings = { host: '127.0.0.1', uiLan: false, readyTimeoutSeconds: 60 };

const HOST = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9.-]{1,253}|::1?|\[?[0-9A-Fa-f:]+\]?)$/;

export const isPort = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535;

/**
 * Reads the settings; a missing or broken file, or a wrong value, falls back to the default
 * (reported in `problems`) so a hand-edited file never keeps the app from starting.
 */
export function loadSettings(file: string): { settings: DesktopSettings; problems: string[] } {
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
  if (input.host !== undefined) {
    if (typeof input.host === 'string' && HOST.test(input.host)) settings.host = input.host;
    else problems.push(`[host] must be an IP address or host name; using ${DEFAULT_SETTINGS.host}`);
  }
  if (input.uiLan !== undefined) {
    if (typeof input.uiLan === 'boolean') settings.uiLan = input.uiLan;
    else problems.push(`[uiLan] must be true or false; using false`);
  }
  if (input.readyTimeoutSeconds !== undefined) {
    const v = input.readyTimeoutSeconds;
    if (Number.isInteger(v) && (v as number) >= 5 && (v as number) <= 600) settings.readyTimeoutSeconds = v as number;
    else problems.push(`[readyTimeoutSeconds] must be an integer 5..600; using ${DEFAULT_SETTINGS.readyTimeoutSeconds}`);
  }
  return { settings, problems };
}

/** Written whole through a temporary file, so a crash never leaves half a file. */
export function saveSettings(file: string, settings: DesktopSettings): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * The server's environment: the desktop app's own, without the POS_* variables that would
 * silently change what the settings file says (POS_LOG_LEVEL stays: it only changes logging),
 * over the server's own defaults (SERVER_ENV).
 */
export function serverEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = { ...SERVER_ENV };
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (key.startsWith('POS_') && key !== 'POS_LOG_LEVEL') continue;
    out[key] = value;
  }
  return out;
}

/** The origin the window loads: a wildcard listener is reached through the loopback address. */
export function localOrigin(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]' || host === 'localhost') return `http://127.0.0.1:${port}`;
  if (host.includes(':')) return `http://[${host.replace(/^\[|\]$/g, '')}]:${port}`;
  return `http://${host}:${port}`;
}
