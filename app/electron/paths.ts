// Where the desktop app keeps its files: everything under Electron's userData folder, so an
// uninstall/reinstall keeps the store's database and a second Windows user gets their own.
import { mkdirSync } from 'node:fs';
import { join, sep } from 'node:path';

export interface DesktopPaths {
  /** The server's --data-dir: pos.sqlite and its WAL, demo-credentials.json. */
  dataDir: string;
  /** desktop-settings.json: port, LAN access, start at login, backup folder (settings.ts). */
  settingsFile: string;
  /** The server's stdout and stderr and the shell's notes, kept for support (log-file.ts rotates it). */
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

/**
 * The same file outside the asar archive. Electron reads app.asar like a folder, plain Node does
 * not: the server (run as Node) and what it loads, its worker threads included, are unpacked
 * (build/electron-builder.config.cjs asarUnpack) and started from app.asar.unpacked.
 */
export function unpackedPath(file: string, separator: string = sep): string {
  const marker = `${separator}app.asar${separator}`;
  const at = file.indexOf(marker);
  return at < 0 ? file : `${file.slice(0, at)}${separator}app.asar.unpacked${separator}${file.slice(at + marker.length)}`;
}
