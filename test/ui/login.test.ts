import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './support/browser.js';
import { useDemoUi } from './support/suite.js';

/** The login screen against `serve --demo`: the staff login lands on today; errors show on the form. */
describe('login (browser)', () => {
  const ui = useDemoUi();

  const pageAtLogin = async (): Promise<Page> => {
    const page = await newPage(ui.browser);
    await page.goto(ui.server.uiUrl);
    // Without a session every screen sends to the login.
    await page.waitForURL(/#\/login$/);
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    // Until /ui/config.json answers, the contract is a text field labelled 契約ID, which getByLabel('契約')
    // also finds: wait for the loaded form, then the demo's three contracts are a <select>.
    await page.locator('form[aria-busy="false"]').waitFor();
    return page;
  };

  it('logs in with the demo staff credentials, lands on today, switches to English and back, logs out', async () => {
    const page = await pageAtLogin();
    const retail = ui.server.contract('demo-retail');
    // The contracts come from /ui/config.json: the demo has three, so a labelled <select>.
    const contract = page.getByLabel('契約');
    expect(await contract.locator('option').allTextContents()).toHaveLength(ui.server.contracts.length);
    await contract.selectOption(retail.contractId);
    await page.getByLabel('スタッフコード').fill(retail.staffUsername);
    await page.getByLabel('パスワード').fill(retail.staffPassword);
    await screenshot(page, 'login');
    await page.getByRole('button', { name: 'ログイン' }).click();

    await page.waitForURL(/#\/today$/);
    await page.getByRole('heading', { level: 1, name: '本日の売上' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'メインメニュー' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['本日', '同期', '日次締め', 'マスター', '予約', '売上グラフ', '在庫', 'CSV 出力', '設定']);
    expect(await nav.getByRole('link', { name: '本日' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('current-staff').textContent()).toBe(`担当: ${retail.staffUsername}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('ja');
    await screenshot(page, 'home');

    await page.getByLabel('言語').selectOption('en');
    await page.getByRole('heading', { level: 1, name: "Today's sales" }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link').first().textContent()).toBe('Today');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await screenshot(page, 'home-en');
    // A keyboard user moves through real links: the sync link opens the sync screen.
    await page.getByRole('link', { name: 'Sync' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/sync$/);
    await page.getByRole('heading', { level: 1, name: 'Sync status' }).waitFor();

    await page.getByLabel('Language').selectOption('ja');
    await page.getByRole('heading', { level: 1, name: '同期の状態' }).waitFor();
    // The session survives a reload (sessionStorage) ...
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '同期の状態' }).waitFor();
    // ... and logging out ends it.
    await page.getByRole('button', { name: 'ログアウト' }).click();
    await page.waitForURL(/#\/login$/);
    await page.getByRole('status').filter({ hasText: 'ログアウトしました' }).waitFor();
    await page.goto(`${ui.server.uiUrl}#/today`);
    await page.waitForURL(/#\/login$/);
    await page.context().close();
  });

  it('shows a wrong password as the error of the password field', async () => {
    const page = await pageAtLogin();
    const retail = ui.server.contract('demo-retail');
    await page.getByLabel('契約').selectOption(retail.contractId);
    await page.getByLabel('スタッフコード').fill(retail.staffUsername);
    await page.getByLabel('パスワード').fill('not-the-password');
    await page.getByRole('button', { name: 'ログイン' }).click();

    const password = page.getByLabel('パスワード');
    await page.locator('.field-error').waitFor();
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await password.getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('スタッフコードまたはパスワードが正しくありません。');
    expect(page.url()).toMatch(/#\/login$/);
    await screenshot(page, 'login-error');
    await page.context().close();
  });
});
