import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOn, bodyOf, formOf, restartsServer } from '../../app/ui/src/screens/settings/form.js';
import { launchBrowser, newPage, screenshot } from './support/browser.js';
import { startUiServer, type UiServer } from './support/server.js';
import { loginAs } from './support/session.js';

const listen = (port = 0) =>
  new Promise<Server>((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen({ port, host: '127.0.0.1' }, () => resolve(s));
  });
const portOf = (s: Server) => (s.address() as { port: number }).port;
const close = (s: Server) => new Promise((r) => s.close(r));

describe('settings form: what it sends', () => {
  const saved = { port: 8080, lan: true, uiLan: false, startAtLogin: true, backupFolder: null, backupKeep: 14, defaultBackupFolder: '/d/backups', restartsServer: false };

  it('sends numbers as numbers, an empty folder as the default (null), and text the API will name', () => {
    expect(bodyOf(formOf(saved))).toEqual({ port: 8080, lan: true, uiLan: false, startAtLogin: true, backupFolder: null, backupKeep: 14 });
    expect(bodyOf({ ...formOf(saved), port: ' 9000 ', backupFolder: ' /mnt/usb ', backupKeep: 'seven' })).toMatchObject({ port: 9000, backupFolder: '/mnt/usb', backupKeep: 'seven' });
  });

  it('knows which changes restart the server, and the new address after a port change', () => {
    expect(restartsServer(saved, { ...formOf(saved), startAtLogin: false, backupKeep: '7' })).toBe(false);
    expect(restartsServer(saved, { ...formOf(saved), port: '8081' })).toBe(true);
    expect(restartsServer(saved, { ...formOf(saved), lan: false })).toBe(true);
    expect(restartsServer(saved, { ...formOf(saved), uiLan: true })).toBe(true);
    expect(addressOn(8081, { protocol: 'http:', hostname: '127.0.0.1', pathname: '/ui/' })).toBe('http://127.0.0.1:8081/ui/');
    expect(addressOn(8081, { protocol: 'http:', hostname: '[::1]', pathname: '/ui/' })).toBe('http://[::1]:8081/ui/');
  });
});

/**
 * The settings screen against `serve --demo` started the way the desktop app starts it: with
 * POS_DESKTOP_SETTINGS naming the app's settings file. The shell's side (watching the file and
 * restarting the server) is tested in Node (test/electron/server-process.test.ts).
 */
describe('desktop settings screen (browser)', () => {
  let server: UiServer;
  let browser: Browser;
  let dir: string;
  let file: string;
  let port: number;
  const field = (page: Page, name: string) => page.locator(`[data-field="${name}"]`);
  const fieldError = (page: Page, name: string) => field(page, name).locator('.field-error');
  const readFile = () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pos-ui-settings-'));
    file = join(dir, 'desktop-settings.json');
    server = await startUiServer({ env: { POS_DESKTOP_SETTINGS: file } });
    port = Number(new URL(server.url).port);
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<Page> {
    // What the app writes at its first start, kept on this PC for the test (lan false).
    writeFileSync(file, JSON.stringify({ port, lan: false, uiLan: false, startAtLogin: true, readyTimeoutSeconds: 60 }));
    const page = await newPage(browser);
    await loginAs(page, server, 'demo-retail');
    await page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link', { name: '設定' }).click();
    await page.waitForURL(/#\/settings$/);
    await expect.poll(() => page.locator('input[name="port"]').inputValue()).toBe(String(port));
    return page;
  }

  it('shows the app\'s settings, shows the API\'s refusals beside their fields, and saves', async () => {
    const page = await open();
    expect(await page.locator('input[name="lan"]').isChecked()).toBe(false);
    expect(await page.locator('input[name="uiLan"]').isChecked()).toBe(false);
    expect(await page.locator('input[name="startAtLogin"]').isChecked()).toBe(true);
    expect(await page.locator('input[name="backupKeep"]').inputValue()).toBe('14');
    const defaultFolder = join(server.dataDir, 'backups');
    expect(await page.locator('input[name="backupFolder"]').getAttribute('placeholder')).toBe(defaultFolder);
    expect(await field(page, 'backupFolder').textContent()).toContain(`空欄のときは ${defaultFolder}。`);
    expect(await page.getByTestId('settings-restart-warning').count()).toBe(0);
    await screenshot(page, 'settings');

    // A relative folder, and a port another program holds: each refusal under its field.
    await page.locator('input[name="backupFolder"]').fill('backups');
    await page.getByTestId('settings-save').click();
    await expect.poll(() => fieldError(page, 'backupFolder').textContent()).toBe('must be an absolute folder path, not backups');

    const other = await listen();
    try {
      await page.locator('input[name="port"]').fill(String(portOf(other)));
      expect(await page.getByTestId('settings-restart-warning').textContent()).toBe('保存するとサーバーが再起動します。数秒間、レジ端末と管理画面がつながりません。');
      await page.locator('input[name="backupFolder"]').fill(join(dir, 'usb', 'backups'));
      await page.getByTestId('settings-save').click();
      await expect.poll(() => fieldError(page, 'port').textContent()).toBe(`port ${portOf(other)} is in use by another program`);
      expect(await fieldError(page, 'backupFolder').count()).toBe(0);
      await screenshot(page, 'settings-port-taken');
    } finally {
      await close(other);
    }
    expect(readFile().port).toBe(port);

    // Back to the server's own port: start at login off, backups on the "USB stick", 7 kept.
    await page.locator('input[name="port"]').fill(String(port));
    await page.locator('input[name="startAtLogin"]').uncheck();
    await page.locator('input[name="backupKeep"]').fill('7');
    expect(await page.getByTestId('settings-restart-warning').count()).toBe(0);
    await page.getByTestId('settings-save').click();
    await expect.poll(() => page.getByTestId('settings-saved').textContent()).toBe('保存しました。');
    expect(readFile()).toEqual({ port, lan: false, uiLan: false, startAtLogin: false, readyTimeoutSeconds: 60, backupFolder: join(dir, 'usb', 'backups'), backupKeep: 7 });
    expect(await page.locator('.field-error').count()).toBe(0);
  });

  it('warns that a new port restarts the server, and gives the address to open after it', async () => {
    const page = await open();
    const free = await listen();
    const next = portOf(free);
    await close(free);
    await page.locator('input[name="port"]').fill(String(next));
    await expect.poll(() => page.getByTestId('settings-restart-warning').isVisible()).toBe(true);
    await page.getByTestId('settings-save').click();
    const done = page.getByTestId('settings-saved');
    await expect.poll(() => done.locator('p').first().textContent()).toBe('保存しました。サーバーを再起動しています。');
    expect(await done.getByRole('link').getAttribute('href')).toBe(`http://127.0.0.1:${next}/ui/`);
    expect(readFile()).toMatchObject({ port: next, lan: false });
    // Saved: the form is the new state, so no warning until the next change.
    expect(await page.getByTestId('settings-restart-warning').count()).toBe(0);
    await screenshot(page, 'settings-saved-restart');
  });

  it('says so on a server the desktop app did not start', async () => {
    const headless = await startUiServer();
    try {
      const page = await newPage(browser);
      await loginAs(page, headless, 'demo-retail');
      // An ordinary visit makes no failing request (issue 20): the server says so with a 200.
      const answer = page.waitForResponse((r) => r.url().endsWith('/pos/desktop_settings') && r.request().method() === 'GET');
      await page.goto(`${headless.uiUrl}#/settings`);
      const response = await answer;
      expect([response.status(), await response.json()]).toEqual([200, { desktopApp: false }]);
      await expect.poll(() => page.getByTestId('settings-absent').textContent()).toBe(
        'このサーバーはデスクトップアプリから起動されていないため、ここで変えられる設定はありません。サーバーの設定は pos-backoffice serve のオプションで行います。',
      );
      expect(await page.locator('form').count()).toBe(0);
    } finally {
      await headless.stop();
    }
  });
});
