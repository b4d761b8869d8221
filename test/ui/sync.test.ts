import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from './support/browser.js';
import { linkStore, startCentral, type Central } from './support/central.js';
import { demoApi, until, type DemoApi, type Json } from './support/demo-api.js';
import { startUiServer, type UiServer } from './support/server.js';
import { loginAs } from './support/session.js';

/** The store links as node 1: the node `serve` mints ids with until a link says otherwise. */
const NODE = 1;
const CONTRACT = 'demo-retail';

/**
 * The sync screen against a real store and a real head office: `serve --demo` linked (while it
 * serves) to `serve --role central` with the same contract; central is stopped and started
 * again on the same port, and the screen follows: online → offline (a sale waits in the outbox)
 * → online (the outbox drains). The store runs short sync intervals so each step takes seconds.
 */
describe('sync (browser)', () => {
  let central: Central;
  let server: UiServer;
  let browser: Browser;
  let api: DemoApi;
  let receiver: Server;
  /** The webhook-id of each notice the receiver got. */
  const received: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      received.push(String(req.headers['webhook-id']));
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    central = await startCentral({ contractId: CONTRACT, plan: 'retail_business', node: NODE });
    server = await startUiServer({ env: { POS_SYNC_INTERVAL_MS: '200', POS_SYNC_IDLE_MAX_MS: '500', POS_SYNC_BACKOFF_MAX_MS: '1000' } });
    browser = await launchBrowser();
    api = await demoApi(server, CONTRACT);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await central?.dispose();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const status = (): Promise<Json> => api.call('GET', '/sync/status');
  const sell = async () => {
    const terminal = ((await api.call('GET', '/terminals?store_id=1001')) as Json[])[0].terminalId;
    await api.call('POST', '/transactions', {
      transactionHeadDivision: '1', storeId: '1001', terminalId: terminal, terminalTranDateTime: new Date().toISOString(),
      details: [{ transactionDetailId: '1', productName: 'Tea', salesPrice: '300', quantity: '1' }],
    });
  };
  const shownState = (page: Page, state: string) => page.locator(`[data-testid="sync-state"][data-state="${state}"]`).waitFor();

  it('shows an unlinked store plainly, then online, offline while central is down, and online again when it returns', async () => {
    const page = await newPage(browser);
    await loginAs(page, server, CONTRACT);
    await page.getByRole('link', { name: '同期' }).click();
    await page.getByRole('heading', { level: 1, name: '同期の状態' }).waitFor();
    await shownState(page, 'unlinked');
    expect(await page.getByTestId('sync-state').textContent()).toContain('本部と連携していません');
    // An unlinked store delivers its own webhooks: a delivered notice can be replayed from the screen.
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await api.call('POST', '/webhook_subscriptions', { url: hook, events: ['pos:payment-method-groups'] });
    const group = ((await api.call('GET', '/payment_method_groups')) as Json[])[0];
    await api.call('PATCH', `/payment_method_groups/${group.paymentMethodGroupId}`, { paymentMethodGroupName: 'Renamed group' });
    await until('the notice is delivered', async () => received.length === 1);
    const delivered = page.locator('[data-testid="webhook-deliveries"] tr[data-status="delivered"]');
    await delivered.waitFor();
    expect(await delivered.locator('td').nth(1).textContent()).toBe('pos:payment-method-groups (edited)');
    await delivered.getByRole('button', { name: '再送' }).click();
    await page.getByText(/配信 \d+ を再送します。/).waitFor();
    await until('the replay reaches the receiver', async () => received.length === 2);
    // Standard Webhooks: a replay keeps the webhook-id, so the receiver can dedupe it.
    expect(received[1]).toBe(received[0]);
    await page.locator('[data-testid="webhook-deliveries"] tr[data-status="delivered"]').waitFor();

    // A sale made before the link waits in the outbox (it is pushed when the link comes).
    await sell();
    await page.locator('[data-testid="outbox-depth"]:not([data-value="0"])').waitFor();

    linkStore(server.dataDir, central, CONTRACT, NODE);
    await until('the store reaches central', async () => (await status()).online === true);
    await shownState(page, 'online');
    await until('the outbox drains', async () => (await status()).outboxDepth === 0);
    await page.locator('[data-testid="outbox-depth"][data-value="0"]').waitFor();
    expect(await page.getByTestId('last-push').textContent()).not.toBe('まだありません');
    expect(await page.getByTestId('last-pull').textContent()).not.toBe('まだありません');
    expect(await page.getByTestId('clock-skew').textContent()).toMatch(/秒/); // milliseconds (ミリ秒) or seconds
    await screenshot(page, 'sync');

    // Head office goes away: the store keeps selling, the sale waits, the screen says offline and why.
    await central.stop();
    await until('the store notices central is down', async () => (await status()).online === false);
    await shownState(page, 'offline');
    await sell();
    await page.locator('[data-testid="outbox-depth"]:not([data-value="0"])').waitFor();
    await page.getByTestId('last-error').waitFor();
    expect(await page.getByTestId('sync-state').textContent()).toContain('本部に接続できません');
    expect(await page.getByTestId('outbox-oldest').textContent()).toMatch(/秒前|分.*前/);
    await screenshot(page, 'sync-offline');

    // Back on the same port: online again, the waiting sale is sent.
    await central.start();
    await until('the store reaches central again', async () => (await status()).online === true && (await status()).outboxDepth === 0);
    await shownState(page, 'online');
    await page.locator('[data-testid="outbox-depth"][data-value="0"]').waitFor();
    await page.getByTestId('last-error').waitFor({ state: 'detached' });
  }, 120_000);
});
