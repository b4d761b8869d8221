// Start at login (on by default): a store PC that restarts overnight must be serving the
// terminals again before anyone opens the app. Started that way the app opens no window, only
// the tray icon (HIDDEN_ARG). Windows and macOS register through Electron
// (app.setLoginItemSettings); Linux has no such call, so the app writes an XDG autostart entry.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** On the command line of a start at login: open no window. */
export const HIDDEN_ARG = '--hidden';
const AUTOSTART_FILE = 'pos-backoffice.desktop';

export type LoginItemPlan =
  | { kind: 'electron'; openAtLogin: boolean; args: string[] }
  | { kind: 'autostart'; file: string; content: string | null }
  | { kind: 'none'; reason: string };

export interface LoginItemContext {
  enabled: boolean;
  platform: NodeJS.Platform;
  /** app.isPackaged: a development run never registers itself. */
  packaged: boolean;
  /** The app's executable (process.execPath). */
  execPath: string;
  env: NodeJS.ProcessEnv;
  home: string;
}

/** Quotes one Exec= argument as the desktop entry specification asks. */
export function desktopExecArg(arg: string): string {
  if (!/[\s"'\\`$<>|&;*?#()]/.test(arg)) return arg;
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function loginItemPlan(c: LoginItemContext): LoginItemPlan {
  if (!c.packaged) return { kind: 'none', reason: 'a development run does not start at login' };
  if (c.platform === 'win32' || c.platform === 'darwin') return { kind: 'electron', openAtLogin: c.enabled, args: [HIDDEN_ARG] };
  if (c.platform !== 'linux') return { kind: 'none', reason: `no start at login on ${c.platform}` };
  const file = join(c.env.XDG_CONFIG_HOME || join(c.home, '.config'), 'autostart', AUTOSTART_FILE);
  if (!c.enabled) return { kind: 'autostart', file, content: null };
  // An AppImage runs from a mount that changes each start; $APPIMAGE is the file itself.
  const program = c.env.APPIMAGE || c.execPath;
  const content = ['[Desktop Entry]', 'Type=Application', 'Name=POS Backoffice', `Exec=${desktopExecArg(program)} ${HIDDEN_ARG}`, 'Terminal=false', 'X-GNOME-Autostart-enabled=true', ''].join('\n');
  return { kind: 'autostart', file, content };
}

/** Writes or removes the Linux autostart entry. */
export function applyAutostart(plan: Extract<LoginItemPlan, { kind: 'autostart' }>): void {
  if (plan.content === null) return rmSync(plan.file, { force: true });
  mkdirSync(dirname(plan.file), { recursive: true });
  writeFileSync(plan.file, plan.content, { mode: 0o644 });
}

/** Whether this start was a start at login: no window, the tray only. */
export function startsHidden(argv: readonly string[], openedAtLogin: boolean): boolean {
  return openedAtLogin || argv.includes(HIDDEN_ARG);
}
