import { describe, expect, it } from 'vitest';
import { newPage, screenshot } from './support/browser.js';
import { demoApi } from './support/demo-api.js';
import { loginAs } from './support/session.js';
import { masterTable } from './support/master-table.js';
import { useDemoUi } from './support/suite.js';

/**
 * The coupons screen (issue 26) on the generic master screens, against `serve --demo`: a coupon
 * created, its API error shown on its field, edited, listed by kind and deleted, in Japanese;
 * the same screen in English. What the screen shows is compared with the API's own answers.
 */
describe('coupons (browser)', () => {
  const ui = useDemoUi();

  /** The API with the demo client's app token. */
  const api = async (method: string, path: string, body?: unknown) => (await demoApi(ui.server, 'demo-retail')).raw(method, path, body);

  const { settled, open, rowIds } = masterTable(ui);

  it('creates, corrects, edits, filters and deletes a coupon (Japanese)', async () => {
    const rate = (await api('POST', '/coupons', { couponName: '10%OFFクーポン', couponDivision: '2', couponValue: '10', startDate: '2026-04-01', endDate: '2026-06-30' })).body;
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await open(page, '/masters/coupons');
    await page.getByRole('heading', { level: 1, name: 'クーポン' }).waitFor();
    expect(await rowIds(page)).toEqual([rate.couponId]);

    // Create: a rate over 100 is the API's 400, shown on its field; corrected, it saves.
    await page.getByTestId('master-create').click();
    await page.getByRole('heading', { level: 2, name: 'クーポンの新規作成' }).waitFor();
    await page.getByLabel('クーポン名').fill('500円引きクーポン');
    await page.getByLabel('区分', { exact: true }).selectOption('2');
    await page.getByLabel('値引額・割引率').fill('500');
    await page.getByLabel('開始日').fill('2026-11-01');
    await page.getByLabel('終了日').fill('2026-11-30');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    const value = page.getByLabel('値引額・割引率');
    await page.locator('.field-error').first().waitFor();
    expect(await value.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[data-field="couponValue"] .field-error').textContent()).toBe('must be a rate of at most 100 (couponDivision 2 takes 500 % off)');
    await page.getByLabel('区分', { exact: true }).selectOption('1');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').filter({ hasText: '「500円引きクーポン」を登録しました。' }).waitFor();
    const listed = (await api('GET', '/coupons?sort=couponId')).body as Array<Record<string, string | null>>;
    const yen = listed.find((c) => c.couponName === '500円引きクーポン')!;
    expect(yen).toMatchObject({ couponDivision: '1', couponValue: '500', startDate: '2026-11-01', endDate: '2026-11-30' });

    // Edit: the last day moves, emptied the first day is cleared (null).
    await open(page, '/masters/coupons');
    await page.getByRole('link', { name: '500円引きクーポン を編集' }).click();
    await page.getByRole('heading', { level: 2, name: 'クーポンの編集: 500円引きクーポン' }).waitFor();
    await page.getByLabel('開始日').fill('');
    await page.getByLabel('終了日').fill('2026-12-31');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').filter({ hasText: '「500円引きクーポン」を保存しました。' }).waitFor();
    expect((await api('GET', `/coupons/${yen.couponId}`)).body).toMatchObject({ startDate: null, endDate: '2026-12-31', couponValue: '500' });

    // The list shows both, and filters by kind as the API does.
    await open(page, '/masters/coupons');
    expect(await rowIds(page)).toEqual(listed.map((c) => c.couponId));
    const row = page.locator(`[data-testid="master-table"] tbody tr[data-id="${yen.couponId}"]`);
    expect(await row.textContent()).toContain('値引（円）');
    await page.getByRole('form', { name: '絞り込み' }).getByLabel('区分').selectOption('2');
    await page.getByRole('button', { name: '検索' }).click();
    await page.waitForURL(/coupon_division=2/);
    await settled(page);
    expect(await rowIds(page)).toEqual([rate.couponId]);
    await open(page, '/masters/coupons');
    await screenshot(page, 'coupons-ja');

    // Delete, asked first.
    await page.getByRole('button', { name: '500円引きクーポン を削除' }).click();
    const dialog = page.getByRole('alertdialog', { name: '削除の確認' });
    await dialog.getByRole('button', { name: '削除する' }).click();
    await page.getByTestId('master-status').filter({ hasText: '「500円引きクーポン」を削除しました。' }).waitFor();
    await expect.poll(() => rowIds(page)).toEqual([rate.couponId]);
    expect((await api('GET', `/coupons/${yen.couponId}`)).status).toBe(404);
    await page.context().close();
  });

  it('speaks English when asked', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await open(page, '/masters/coupons');
    await page.getByTestId('lang').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();
    await page.getByRole('columnheader', { name: 'Amount or rate' }).waitFor();
    await page.getByTestId('master-create').click();
    await page.getByRole('heading', { level: 2, name: /Coupons/ }).waitFor();
    for (const label of ['Coupon name', 'Amount or rate', 'First day', 'Last day']) await page.getByLabel(label).waitFor();
    await screenshot(page, 'coupons-en');
    await page.getByTestId('lang').selectOption('ja');
    await page.context().close();
  });
});
