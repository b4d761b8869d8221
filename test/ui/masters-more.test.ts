import { describe, expect, it } from 'vitest';
import { newPage, screenshot } from './support/browser.js';
import { demoApi } from './support/demo-api.js';
import { loginAs } from './support/session.js';
import { masterTable } from './support/master-table.js';
import { useDemoUi } from './support/suite.js';

/**
 * Receipt provisos and staff roles (issue 26, masters-tax) on the generic master screens,
 * against `serve --demo` (Retail Business): a proviso registered as the initial value takes that
 * from the one that was, its API error shown on its field; roles list the administrator role,
 * a role is registered and deleted; the screens speak English too. What the screen shows is
 * compared with the API's own answers.
 */
describe('receipt provisos and roles (browser)', () => {
  const ui = useDemoUi();

  /** The API with the demo client's app token. */
  const api = async (method: string, path: string, body?: unknown) => (await demoApi(ui.server, 'demo-retail')).raw(method, path, body);

  const { settled, open, rowIds } = masterTable(ui);

  it('receipt provisos: registers one as the initial value, shows an API error on its field, filters, edits (Japanese)', async () => {
    const first = (await api('POST', '/receipt_provisoes', { receiptProvisoName: 'お品代として', initialValueFlag: '1', displaySequence: '1' })).body;
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await open(page, '/masters/receipt-provisos');
    await page.getByRole('heading', { level: 1, name: '領収証但し書き' }).waitFor();
    expect(await rowIds(page)).toEqual([first.receiptProvisoCode]);

    await page.getByTestId('master-create').click();
    await page.getByRole('heading', { level: 2, name: '領収証但し書きの新規作成' }).waitFor();
    await page.getByLabel('但し書き', { exact: true }).fill('飲食代として');
    await page.getByLabel('初期値').selectOption('1');
    await page.getByLabel('表示順').fill('1000');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.locator('[data-field="displaySequence"] .field-error').waitFor();
    expect(await page.locator('[data-field="displaySequence"] .field-error').textContent()).toBe('must be an integer from 1 to 999');
    await page.getByLabel('表示順').fill('2');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').filter({ hasText: '「飲食代として」を登録しました。' }).waitFor();
    const listed = (await api('GET', '/receipt_provisoes')).body as Array<Record<string, string | null>>;
    const second = listed.find((p) => p.receiptProvisoName === '飲食代として')!;
    expect(listed.map((p) => [p.receiptProvisoName, p.initialValueFlag])).toEqual([['お品代として', '0'], ['飲食代として', '1']]);

    // The list filters by the initial value as the API does.
    await open(page, '/masters/receipt-provisos');
    expect(await rowIds(page)).toEqual([first.receiptProvisoCode, second.receiptProvisoCode]);
    await page.getByRole('form', { name: '絞り込み' }).getByLabel('初期値').selectOption('1');
    await page.getByRole('button', { name: '検索' }).click();
    await page.waitForURL(/initial_value_flag=1/);
    await settled(page);
    expect(await rowIds(page)).toEqual([second.receiptProvisoCode]);

    // Edit: the form loads the row through the list's code filter (the platform has no single GET).
    await open(page, '/masters/receipt-provisos');
    await page.getByRole('link', { name: 'お品代として を編集' }).click();
    await page.getByRole('heading', { level: 2, name: '領収証但し書きの編集: お品代として' }).waitFor();
    await page.getByLabel('但し書き', { exact: true }).fill('お品代');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').filter({ hasText: '「お品代」を保存しました。' }).waitFor();
    expect((await api('GET', `/receipt_provisoes?receipt_proviso_code=${first.receiptProvisoCode}`)).body).toMatchObject([{ receiptProvisoName: 'お品代', displaySequence: '1' }]);
    await open(page, '/masters/receipt-provisos');
    await screenshot(page, 'receipt-provisos-ja');
    await page.context().close();
  });

  it('roles: the administrator role is listed; a role is registered and deleted (Japanese); the screen speaks English', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await open(page, '/masters/roles');
    await page.getByRole('heading', { level: 1, name: '役割・役職' }).waitFor();
    expect(await rowIds(page)).toEqual(['1']);
    expect(await page.locator('[data-testid="master-table"] tbody tr[data-id="1"]').textContent()).toContain('管理者');

    await page.getByTestId('master-create').click();
    await page.getByLabel('役割名・役職名').fill('店長');
    await page.getByLabel('説明').fill('店舗管理者用役割');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').filter({ hasText: '「店長」を登録しました。' }).waitFor();
    const created = ((await api('GET', '/roles')).body as Array<Record<string, string>>).find((r) => r.roleName === '店長')!;
    expect(created).toMatchObject({ note: '店舗管理者用役割' });
    await open(page, '/masters/roles');
    expect(await rowIds(page)).toEqual(['1', created.roleId]);
    await screenshot(page, 'roles-ja');

    await page.getByRole('button', { name: '店長 を削除' }).click();
    await page.getByRole('alertdialog', { name: '削除の確認' }).getByRole('button', { name: '削除する' }).click();
    await page.getByTestId('master-status').filter({ hasText: '「店長」を削除しました。' }).waitFor();
    await expect.poll(() => rowIds(page)).toEqual(['1']);
    expect((await api('GET', `/roles/${created.roleId}`)).status).toBe(404);

    await page.getByTestId('lang').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Staff roles' }).waitFor();
    await page.getByRole('columnheader', { name: 'Role name' }).waitFor();
    await open(page, '/masters/receipt-provisos');
    await page.getByRole('heading', { level: 1, name: 'Receipt provisos' }).waitFor();
    await page.getByRole('columnheader', { name: 'Initial value' }).waitFor();
    await screenshot(page, 'receipt-provisos-en');
    await page.getByTestId('lang').selectOption('ja');
    await page.context().close();
  });
});
