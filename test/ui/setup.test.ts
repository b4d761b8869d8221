import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from './support/browser.js';
import { cli, startCentral, type Central } from './support/central.js';
import { startUiServer, type UiServer } from './support/server.js';

/**
 * The first run (issue 21) in the browser, keyboard only, at 1366×768: a fresh store data dir
 * sends /ui/ to the setup screen; either way ends with the staff member logged in.
 */

/** Types into the focused control after clearing it (Ctrl+A selects its text). */
async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** The name attribute of the element that has the focus: where the keyboard is. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent ?? null);

async function pageAtSetup(browser: Browser, server: UiServer, lang: 'ja' | 'en'): Promise<Page> {
  const page = await newPage(browser);
  // The language a user picked earlier is kept in localStorage (the switch itself is tested in login.test.ts).
  if (lang === 'en') await page.addInitScript(() => localStorage.setItem('pos-ui.lang', 'en'));
  await page.goto(server.uiUrl);
  // No contract: the login sends to the setup screen.
  await page.waitForURL(/#\/setup$/);
  await page.getByRole('heading', { level: 2, name: lang === 'ja' ? '初期設定' : 'Setup' }).waitFor();
  // The two ways are drawn once GET /setup has answered, after the heading; the first takes the
  // focus as it appears, so a key pressed before then would go nowhere.
  await page.locator('button.setup-way').first().waitFor();
  return page;
}

describe('setup (browser): a shop on its own', () => {
  let server: UiServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startUiServer({ demo: false });
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('makes the shop, shows the client secret once with a copy button, and the staff member logs in (Japanese)', async () => {
    const page = await pageAtSetup(browser, server, 'ja');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await screenshot(page, 'setup-choose');
    // The first way has the focus; Tab to the second, Enter to take it.
    expect(await focused(page)).toContain('本部に接続する');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 3, name: '単独の店舗として始める' }).waitFor();

    // The contract ID has the focus; the form is filled field by field with Tab.
    expect(await focused(page)).toBe('contractId');
    await page.keyboard.type('yamada-shop');
    await page.keyboard.press('Tab');
    await page.keyboard.type('山田商店');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('plan');
    // The options follow the plan list: choose one, standard, premium, premium plus, food, retail.
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('timeZone');
    expect(await page.locator('input[name="timeZone"]').inputValue()).toBe('Asia/Tokyo');
    await page.keyboard.press('Tab');
    await page.keyboard.type('山田 太郎');
    await page.keyboard.press('Tab');
    await page.keyboard.type('OWNER1');
    await page.keyboard.press('Tab');
    await page.keyboard.type('short');
    await page.keyboard.press('Tab');
    await page.keyboard.type('本店');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('terminalName');
    await page.keyboard.type('レジ1');
    expect(await page.locator('select[name="plan"]').inputValue()).toBe('retail_business');
    await screenshot(page, 'setup-shop');

    // Enter sends the form; the API's rule comes back on its field, which takes the focus.
    await page.keyboard.press('Enter');
    const passwordError = page.locator('[data-field="password"] .field-error');
    await passwordError.waitFor();
    expect(await passwordError.textContent()).toBe('must be at least 8 characters');
    expect(await page.locator('input[name="password"]').getAttribute('aria-invalid')).toBe('true');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'password');
    await screenshot(page, 'setup-shop-error');
    await retype(page, 'first-pass-1');
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { level: 3, name: '山田商店 の準備ができました' }).waitFor();
    const secret = await page.getByLabel('クライアントシークレット', { exact: true }).inputValue();
    const clientId = await page.getByLabel('クライアントID', { exact: true }).inputValue();
    expect(secret).toMatch(/^[\w-]{43}$/);
    // Tab from the client ID's field: its copy button, the secret's field, the secret's copy button.
    await page.getByLabel('クライアントID', { exact: true }).focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('クライアントシークレットをコピー');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'クライアントシークレットをコピーしました。' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await screenshot(page, 'setup-shop-created');

    // The registers' client works with the secret shown.
    const token = await fetch(`${server.url}/app/yamada-shop/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);

    // The way on opens once the secret is saved: Tab to the check box, Space, Tab, Enter.
    const onward = page.getByRole('button', { name: 'ログインへ進む' });
    expect(await onward.isDisabled()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('saved');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');

    // The login has the contract and staff code; the password has the focus.
    await page.waitForURL(/#\/login\?staff=OWNER1$/);
    await page.getByRole('heading', { name: 'ログイン' }).waitFor();
    // The contract comes with /ui/config.json, read as the login opens.
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name="contract_id"]')?.value === 'yamada-shop');
    expect(await page.locator('input[name="staffCode"]').inputValue()).toBe('OWNER1');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'password');
    await page.keyboard.type('first-pass-1');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/today$/);
    expect(await page.getByTestId('current-staff').textContent()).toBe('担当: OWNER1');

    // Set up: the setup screen now sends to the login, and the API refuses a second setup.
    await page.goto(`${server.uiUrl}#/setup`);
    await page.waitForURL(/#\/(today|login)$/);
    const again = await fetch(`${server.url}/setup/shop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(again.status).toBe(409);
    await page.context().close();
  });

  it('looks right in English at 1366×768', async () => {
    // The same server is set up now: a second fresh one shows the form in English.
    const fresh = await startUiServer({ demo: false });
    try {
      const page = await pageAtSetup(browser, fresh, 'en');
      // The two ways are drawn once GET /setup has answered, after the heading.
      await page.getByRole('button', { name: /Start a shop on its own/ }).waitFor();
      expect(await page.getByRole('button', { name: /Start a shop on its own/ }).isVisible()).toBe(true);
      await screenshot(page, 'setup-choose-en');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 3, name: 'Start a shop on its own' }).waitFor();
      // Everything fits the smallest screen: the send button is on it without scrolling.
      const box = await page.getByRole('button', { name: 'Create' }).boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(768);
      // Sent empty: every required field says so on itself.
      await page.keyboard.press('Enter');
      await page.locator('[data-field="contractId"] .field-error').waitFor();
      for (const name of ['contractId', 'contractName', 'plan', 'storeName', 'staffName', 'staffCode', 'password', 'terminalName']) {
        expect(await page.locator(`[data-field="${name}"] .field-error`).textContent(), name).not.toBe('');
      }
      expect(await page.locator('[data-field="plan"] .field-error').textContent()).toBe('is required');
      await screenshot(page, 'setup-shop-en');
      await page.context().close();
    } finally {
      await fresh.stop();
    }
  });
});

describe('setup (browser): connect to head office, against a real central', () => {
  const CONTRACT = 'hq-chain';
  let central: Central;
  let server: UiServer;
  let browser: Browser;

  beforeAll(async () => {
    central = await startCentral({ contractId: CONTRACT, plan: 'retail_business', node: 5 });
    // Head office issues the staff login the store's staff log in with.
    const [client] = cli(central.dataDir, ['client', 'create', '--contract', CONTRACT]);
    const auth = `Basic ${Buffer.from(`${client!.clientId}:${client!.clientSecret}`).toString('base64')}`;
    const token = await (
      await fetch(`${central.url}/app/${CONTRACT}/token`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })
    ).json();
    const staff = await (
      await fetch(`${central.url}/${CONTRACT}/pos/staffs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ staffName: 'Hanako HQ', staffCode: 'HQ01' }),
      })
    ).json();
    cli(central.dataDir, ['staff-password', 'set', '--contract', CONTRACT, '--staff', staff.staffId, '--password', 'hq-pass-01', '--rights', 'sales_view,daily_closing']);
    server = await startUiServer({ demo: false });
    browser = await launchBrowser();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await central?.dispose();
  });

  it('a wrong secret shows on its field; the right one links, follows the first pull, and the head-office staff member logs in (English)', async () => {
    const page = await pageAtSetup(browser, server, 'en');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 3, name: 'Connect to head office' }).waitFor();
    expect(await focused(page)).toBe('centralUrl');
    await page.keyboard.type(central.url);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('insecure');
    await page.keyboard.press('Tab');
    await page.keyboard.type(CONTRACT);
    await page.keyboard.press('Tab');
    await page.keyboard.type('5');
    await page.keyboard.press('Tab');
    await page.keyboard.type('nsec_wrong');
    await page.keyboard.press('Enter');

    const secretError = page.locator('[data-field="secret"] .field-error');
    await secretError.waitFor();
    expect(await secretError.textContent()).toBe(`central refused the link (401): the secret does not match node 5 of contract ${CONTRACT}`);
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'secret');
    await screenshot(page, 'setup-head-office-en');
    await retype(page, central.secret);
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { level: 3, name: 'Connected to head office' }).waitFor();
    await page.getByText(`Connected to contract ${CONTRACT} as node 5.`).waitFor();
    // The serving store's scheduler pulls within seconds; the login button then takes the focus.
    const toLogin = page.getByRole('button', { name: 'Go to the login' });
    await toLogin.waitFor({ timeout: 30_000 });
    await page.getByText('All masters have arrived.').waitFor();
    expect(await page.getByRole('row', { name: /Staff who can log in/ }).getByRole('cell').textContent()).toBe('1');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Go to the login');
    await screenshot(page, 'setup-first-pull-en');
    await page.keyboard.press('Enter');

    await page.waitForURL(/#\/login$/);
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.waitForFunction((id) => document.querySelector<HTMLInputElement>('input[name="contract_id"]')?.value === id, CONTRACT);
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'staffCode');
    await page.keyboard.type('HQ01');
    await page.keyboard.press('Tab');
    await page.keyboard.type('hq-pass-01');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/today$/);
    expect(await page.getByTestId('current-staff').textContent()).toBe('Staff: HQ01');
    await page.context().close();
  });

  it('the head-office form in Japanese', async () => {
    const fresh = await startUiServer({ demo: false });
    try {
      const page = await pageAtSetup(browser, fresh, 'ja');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 3, name: '本部に接続する' }).waitFor();
      await page.keyboard.type('http://127.0.0.1:9');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.type(CONTRACT);
      await page.keyboard.press('Tab');
      await page.keyboard.type('5');
      await page.keyboard.press('Tab');
      await page.keyboard.type(central.secret);
      await page.keyboard.press('Enter');
      // Nothing listens there: the address is named, without the command line's --offline advice.
      const urlError = page.locator('[data-field="centralUrl"] .field-error');
      await urlError.waitFor();
      expect(await urlError.textContent()).toMatch(/^central http:\/\/127\.0\.0\.1:9 cannot be reached \(.*\); check the address$/);
      await screenshot(page, 'setup-head-office');
      await page.context().close();
    } finally {
      await fresh.stop();
    }
  });
});
