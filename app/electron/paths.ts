// Where the desktop app keeps its files: everything under Electron's userData folder, so an
// uninstall/reinstall keeps the store's database and a second Windows user gets their own.
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface DesktopPaths {
  /** The server's --data-dir: pos.sqlite and its WAL, demo-credentials.json. */
  dataDir: string;
  /** desktop-settings.json: port, host, LAN access of the UI (settings.ts). */
  settingsFile: string;
  /** The server's stdout and stderr, kept for support. */
  logFile: string;
}

export function desktopPaths(userData: string): DesktopPaths {
  return {
    dataDir: join(userData, 'data'),
    settingsFile: join(userData, 'desktop-settings.json'),
    logFile: join(userData, 'logs', 'server.log'),
  };
}

/** Creates the data and log folders; the data folder is private to the user (it holds secrets). */
export function ensureFolders(paths: DesktopPaths): void {
  mkdirSync(paths.dataDir, { recursive: true, mode: 0o700 });
  mkdirSync(join(paths.logFile, '..'), { recursive: true, mode: 0o700 });
}

/** Keeps one previous log: a store PC runs for years, the log must not grow without end. */
export function rotateLog(file: string, maxBytes = 5 * 1024 * 1024): boolean {
  if (!existsSync(file) || statSync(file).size <= maxBytes) return false;
  renameSync(file, `${file}.1`);
  return true;
}
