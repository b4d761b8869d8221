import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyAutostart, desktopExecArg, HIDDEN_ARG, loginItemPlan, startsHidden, type LoginItemContext } from '../../app/electron/login-item.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'pos-home-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const context = (over: Partial<LoginItemContext>): LoginItemContext => ({ enabled: true, platform: 'linux', packaged: true, execPath: '/opt/POS Backoffice/pos-backoffice', env: {}, home, ...over });

describe('start at login', () => {
  it('registers through Electron on Windows and macOS, started without a window', () => {
    expect(loginItemPlan(context({ platform: 'win32' }))).toEqual({ kind: 'electron', openAtLogin: true, args: ['--hidden'] });
    expect(loginItemPlan(context({ platform: 'darwin', enabled: false }))).toEqual({ kind: 'electron', openAtLogin: false, args: ['--hidden'] });
  });

  it('never registers a development run', () => {
    expect(loginItemPlan(context({ packaged: false, platform: 'win32' }))).toEqual({ kind: 'none', reason: 'a development run does not start at login' });
  });

  it('writes an XDG autostart entry on Linux for the installed program, and removes it when turned off', () => {
    const plan = loginItemPlan(context({}));
    const file = join(home, '.config', 'autostart', 'pos-backoffice.desktop');
    expect(plan).toEqual({
      kind: 'autostart',
      file,
      content: '[Desktop Entry]\nType=Application\nName=POS Backoffice\nExec="/opt/POS Backoffice/pos-backoffice" --hidden\nTerminal=false\nX-GNOME-Autostart-enabled=true\n',
    });
    if (plan.kind !== 'autostart') return;
    applyAutostart(plan);
    expect(readFileSync(file, 'utf8')).toBe(plan.content);
    const off = loginItemPlan(context({ enabled: false }));
    expect(off).toEqual({ kind: 'autostart', file, content: null });
    if (off.kind === 'autostart') applyAutostart(off);
    expect(existsSync(file)).toBe(false);
    if (off.kind === 'autostart') applyAutostart(off); // already gone: no error
  });

  it('starts the AppImage file itself (its mount changes each run), under XDG_CONFIG_HOME when set', () => {
    const plan = loginItemPlan(context({ execPath: '/tmp/.mount_POS123/pos-backoffice', env: { APPIMAGE: '/home/staff/Apps/POS Backoffice-0.1.0-x86_64.AppImage', XDG_CONFIG_HOME: join(home, 'cfg') } }));
    expect(plan).toMatchObject({ file: join(home, 'cfg', 'autostart', 'pos-backoffice.desktop') });
    expect(plan.kind === 'autostart' && plan.content).toContain('Exec="/home/staff/Apps/POS Backoffice-0.1.0-x86_64.AppImage" --hidden\n');
  });

  it('quotes Exec arguments as the desktop entry specification asks', () => {
    expect(desktopExecArg('/usr/bin/pos')).toBe('/usr/bin/pos');
    expect(desktopExecArg('/opt/a b/$x"y`z\\w')).toBe('"/opt/a b/\\$x\\"y\\`z\\\\w"');
  });

  it('opens no window when started at login', () => {
    expect(startsHidden(['/opt/pos', HIDDEN_ARG], false)).toBe(true);
    expect(startsHidden(['/opt/pos'], true)).toBe(true);
    expect(startsHidden(['/opt/pos', '--demo'], false)).toBe(false);
  });
});
