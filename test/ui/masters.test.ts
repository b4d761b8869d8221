import { describe, expect, it } from 'vitest';
import { newPage, screenshot } from './support/browser.js';
import { until } from './support/demo-api.js';
import { loginAs } from './support/session.js';
import { masterTable } from './support/master-table.js';
import { useDemoUi } from './support/suite.js';

/**
 * The master screens against `serve --demo`: a category's whole life (search, paging, create,
 * edit, delete), the staff update's API validation error shown on its field, every other kind
 * listed (one screenshot each), and the plan notices of a retail contract.
 */
describe('masters (browser)', () => {
  const ui = useDemoUi();

  /** The API itself, with the demo client's app token: what the screens must agree with. */
  async function apiGet(contractId: string, path: string): Promise<{ status: number; body: unknown; link: string | null }> {
    const c = ui.server.contract(contractId);
    const token = await fetch(c.tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const base = path.startsWith('/waiter') ? c.baseUrl.replace(/\/pos$/, '') : c.baseUrl;
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token.access_token}` } });
    return { status: response.status, body: response.status === 204 ? null : await response.json(), link: response.headers.get('link') };
  }

  const { settled, open, rowIds } = masterTable(ui);

  it('lists categories with search and paging, then creates, edits and deletes one', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await open(page, '/masters/categories');
    await page.getByRole('heading', { level: 1, name: '部門' }).waitFor();
    type Category = { categoryId: string; categoryCode: string | null; categoryName: string; parentCategoryId: string | null };
    const all = (await apiGet('demo-retail', '/categories?limit=1000')).body as Category[];
    expect(await rowIds(page)).toEqual(all.map((c) => c.categoryId));

    // Search: the API's category_code filter.
    const code = all.find((c) => c.categoryCode)!.categoryCode!;
    await page.getByRole('form', { name: '絞り込み' }).getByLabel('部門コード').fill(code);
    await page.getByRole('button', { name: '検索' }).click();
    await page.waitForURL(new RegExp(`category_code=${encodeURIComponent(code)}`));
    await settled(page);
    expect(await rowIds(page)).toEqual(all.filter((c) => c.categoryCode === code).map((c) => c.categoryId));
    await page.getByRole('button', { name: '条件をクリア' }).click();
    await page.waitForURL(/#\/masters\/categories$/);

    // Paging: limit and page as the API takes them, next/prev from its Link header.
    await open(page, '/masters/categories?limit=3');
    expect(await rowIds(page)).toEqual(all.slice(0, 3).map((c) => c.categoryId));
    const paging = page.getByRole('navigation', { name: 'ページ送り' });
    expect(await paging.getByRole('button', { name: '前へ' }).isDisabled()).toBe(true);
    await paging.getByRole('button', { name: '次へ' }).click();
    await page.waitForURL(/page=2/);
    await settled(page);
    await page.getByTestId('master-page').filter({ hasText: '2 ページ目' }).waitFor();
    expect(await rowIds(page)).toEqual(all.slice(3, 6).map((c) => c.categoryId));
    expect(await paging.getByRole('button', { name: '前へ' }).isDisabled()).toBe(false);
    // Sorting by code, descending.
    await page.getByLabel('並び順').selectOption('categoryCode:desc');
    await page.waitForURL(/sort=categoryCode%3Adesc/);
    await settled(page);
    const sorted = (await apiGet('demo-retail', '/categories?limit=3&sort=categoryCode:desc')).body as Array<{ categoryId: string }>;
    expect(await rowIds(page)).toEqual(sorted.map((c) => c.categoryId));
    await screenshot(page, 'masters-categories');

    // A refused delete: the API's reason is shown in the question, and nothing is deleted.
    const parent = all.find((c) => all.some((x) => x.parentCategoryId === c.categoryId))!;
    await open(page, '/masters/categories?limit=100');
    await page.getByRole('button', { name: `${parent.categoryName} を削除` }).click();
    const refused = page.getByRole('alertdialog', { name: '削除の確認' });
    await refused.getByRole('button', { name: '削除する' }).click();
    await refused.getByRole('alert').filter({ hasText: 'has child categories' }).waitFor();
    await refused.getByRole('button', { name: 'キャンセル' }).click();
    await refused.waitFor({ state: 'hidden' });
    expect((await apiGet('demo-retail', `/categories/${parent.categoryId}`)).status).toBe(200);

    // Create.
    await page.getByTestId('master-create').click();
    await page.getByRole('heading', { level: 2, name: '部門の新規作成' }).waitFor();
    await page.getByLabel('部門名').fill('UIテスト部門');
    await page.getByLabel('部門コード').fill('UI-TEST');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').filter({ hasText: '「UIテスト部門」を登録しました。' }).waitFor();
    const created = ((await apiGet('demo-retail', '/categories?category_code=UI-TEST')).body as Array<{ categoryId: string; categoryName: string }>)[0]!;
    expect(created.categoryName).toBe('UIテスト部門');

    // Edit: an API error lands on its field first, then a good value saves.
    await open(page, '/masters/categories?category_code=UI-TEST');
    await page.getByRole('link', { name: 'UIテスト部門 を編集' }).click();
    await page.getByRole('heading', { level: 2, name: '部門の編集: UIテスト部門' }).waitFor();
    await page.getByLabel('色').fill('orange');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    const color = page.getByLabel('色');
    await page.locator('.field-error').first().waitFor();
    expect(await color.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${(await color.getAttribute('aria-describedby'))!.split(' ')[0]}"]`).textContent()).toMatch(/HTML colour code/);
    await color.fill('#336699');
    await page.getByLabel('部門名').fill('UIテスト部門（改）');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').filter({ hasText: '「UIテスト部門（改）」を保存しました。' }).waitFor();
    await settled(page);
    const edited = (await apiGet('demo-retail', `/categories/${created.categoryId}`)).body as { categoryName: string; color: string; categoryCode: string };
    expect(edited).toMatchObject({ categoryName: 'UIテスト部門（改）', color: '#336699', categoryCode: 'UI-TEST' });

    // Delete, asked first.
    await page.getByRole('button', { name: 'UIテスト部門（改） を削除' }).click();
    const dialog = page.getByRole('alertdialog', { name: '削除の確認' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'キャンセル' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await apiGet('demo-retail', `/categories/${created.categoryId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'UIテスト部門（改） を削除' }).click();
    await dialog.getByRole('button', { name: '削除する' }).click();
    await page.getByTestId('master-status').filter({ hasText: '「UIテスト部門（改）」を削除しました。' }).waitFor();
    await expect.poll(() => rowIds(page)).not.toContain(created.categoryId);
    expect((await apiGet('demo-retail', `/categories/${created.categoryId}`)).status).toBe(404);
    await page.context().close();
  });

  it('edits a staff member and shows the API validation errors on their fields', async () => {
    // Updating staff is a plan feature (spec 4.4): the premium plus demo contract may.
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-premium');
    await open(page, '/masters/staffs');
    const staff = ((await apiGet('demo-premium', '/staffs?sort=staffId')).body as Array<{ staffId: string; staffName: string }>)[1]!;
    await page.getByRole('link', { name: `${staff.staffName} を編集` }).click();
    await page.getByRole('heading', { level: 2, name: `スタッフの編集: ${staff.staffName}` }).waitFor();
    const name = page.getByLabel('氏名', { exact: true });
    const kana = page.getByLabel('フリガナ');
    await name.fill('長'.repeat(51));
    await kana.fill('ひらがな');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.locator('.field-error').first().waitFor();

    expect(await name.getAttribute('aria-invalid')).toBe('true');
    const nameError = page.locator(`[id="${(await name.getAttribute('aria-describedby'))!.split(' ')[0]}"]`);
    expect(await nameError.textContent()).toBe('must be at most 50 characters');
    expect(await kana.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[data-field="staffKana"] .field-error').textContent()).toMatch(/katakana/);
    // The first invalid field has the focus; the other fields are not marked.
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByLabel('スタッフコード').getAttribute('aria-invalid')).toBeNull();
    // Nothing was saved; this staff member has no login, so the form says how to give one.
    expect(((await apiGet('demo-premium', `/staffs/${staff.staffId}`)).body as { staffName: string }).staffName).toBe(staff.staffName);
    await page.getByTestId('staff-rights').getByText('staff-password set').waitFor();
    await screenshot(page, 'masters-staff-error');

    // Fixed, it saves.
    await name.fill(`${staff.staffName}（改）`);
    await kana.fill('カイ');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').waitFor();
    expect(((await apiGet('demo-premium', `/staffs/${staff.staffId}`)).body as { staffName: string }).staffName).toBe(`${staff.staffName}（改）`);
    await page.context().close();
  });

  it("sets a staff member's back-office rights on the staff form", async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-premium');
    await open(page, '/masters/staffs');
    const manager = ((await apiGet('demo-premium', '/staffs?sort=staffId')).body as Array<{ staffId: string; staffName: string; staffCode: string }>).find((s) => s.staffCode === 'S001')!;
    await page.getByRole('link', { name: `${manager.staffName} を編集` }).click();
    const rights = page.getByTestId('staff-rights');
    const closing = rights.getByRole('checkbox', { name: /daily_closing/ });
    await closing.waitFor();
    // The form itself may be saved here, so nothing needs explaining.
    expect(await rights.getByTestId('staff-rights-own').count()).toBe(0);
    expect(await closing.isChecked()).toBe(true);
    await closing.uncheck();
    await rights.getByRole('button', { name: '権限を保存' }).click();
    await rights.getByRole('status').waitFor();
    const stored = (await apiGet('demo-premium', `/staffs/${manager.staffId}/rights`)).body as { login: boolean; rights: string[] };
    expect(stored.login).toBe(true);
    expect(stored.rights).not.toContain('daily_closing');
    expect(stored.rights).toContain('staff_edit_all');
    await screenshot(page, 'masters-staff-rights');
    await closing.check();
    await rights.getByRole('button', { name: '権限を保存' }).click();
    await rights.getByRole('status').waitFor();
    await page.context().close();
  });

  it('lists every other kind (restaurant kinds on the restaurant contract), yen-formatted', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-food');
    const kinds = ['customer-groups', 'staffs', 'staff-ranks', 'products', 'product-labels', 'terminals', 'menus', 'menu-conditions', 'topping-groups', 'payment-methods', 'payment-method-groups'];
    for (const kind of kinds) {
      await page.goto(`${ui.server.uiUrl}#/masters/${kind}`);
      // The menu conditions pick the first store themselves.
      if (kind === 'menu-conditions') await page.waitForURL(/store_id=\d+/);
      await settled(page);
      expect(await rowIds(page), kind).not.toHaveLength(0);
      expect(await page.locator('.form-problem').count(), kind).toBe(0);
      await screenshot(page, `masters-${kind}`);
    }
    // Amounts are yen-formatted: the first menu's price.
    await open(page, '/masters/menus?sort=menuId');
    const firstMenu = ((await apiGet('demo-food', '/waiter/menus?sort=menuId&limit=1')).body as Array<{ menuId: string; price: string }>)[0]!;
    const priceCell = page.locator(`tr[data-id="${firstMenu.menuId}"] td`).nth(6);
    expect(await priceCell.textContent()).toBe(`¥${Number(firstMenu.price).toLocaleString('en-US')}`);
    // English labels throughout.
    await page.getByLabel('言語').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Menus' }).waitFor();
    await page.getByRole('columnheader', { name: 'Menu name' }).waitFor();
    await page.getByRole('navigation', { name: 'Kinds of master' }).getByRole('link', { name: 'Topping groups' }).click();
    await page.waitForURL(/topping-groups$/);
    await settled(page);
    await page.getByRole('columnheader', { name: 'Rule' }).waitFor();
    await page.getByRole('cell', { name: 'Whole group 0–3' }).waitFor();
    await screenshot(page, 'masters-topping-groups-en');
    await page.context().close();
  });

  it("edits a product's price and free-item values; an error names the free item's own input", async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-food');
    const product = ((await apiGet('demo-food', '/products?sort=productId&limit=1')).body as Array<{ productId: string; productName: string; reserveItems: Array<{ no: string; value: string }> }>)[0]!;
    const labels = (await apiGet('demo-food', '/products/reserve_item_labels')).body as Array<{ no: string; label: string }>;
    // The product's second free item: the API names it [reserveItems[1].value].
    const second = labels.find((l) => l.no === product.reserveItems[1]!.no)!;
    await open(page, '/masters/products?sort=productId');
    await page.getByRole('link', { name: `${product.productName} を編集` }).click();
    const input = page.getByLabel(`${second.no}. ${second.label}`);
    await input.fill('x'.repeat(86));
    await page.getByLabel('売価').fill('460');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.locator('.field-error').first().waitFor();
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[data-field="reserveItems.${second.no}"] .field-error`).textContent()).toBe('must be at most 85 characters');
    expect(await page.locator('.form-problem').count()).toBe(0);
    await screenshot(page, 'masters-product-error');
    await input.fill('Colombia');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').waitFor();
    const saved = (await apiGet('demo-food', `/products/${product.productId}`)).body as { price: string; reserveItems: Array<{ no: string; value: string }> };
    expect(saved.price).toBe('460');
    expect(saved.reserveItems).toEqual([product.reserveItems[0], { no: second.no, value: 'Colombia' }]);
    await page.context().close();
  });

  it('sets a menu condition with PUT and shows it in the list', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-food');
    await page.goto(`${ui.server.uiUrl}#/masters/menu-conditions`);
    await page.waitForURL(/store_id=(\d+)/);
    const storeId = /store_id=(\d+)/.exec(page.url())![1]!;
    await settled(page);
    const menuId = (await rowIds(page))[0]!;
    await page.locator(`tr[data-id="${menuId}"]`).getByRole('link').click();
    await page.getByLabel('残数').fill('-1');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.locator('[data-field="quantity"] .field-error').waitFor();
    expect(await page.getByLabel('残数').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('残数').fill('5');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.getByTestId('master-status').waitFor();
    const conditions = (await apiGet('demo-food', `/waiter/menu_conditions/stores/${storeId}?menu_ids=${menuId}`)).body as Array<{ quantity: number | null }>;
    expect(conditions[0]!.quantity).toBe(5);
    await page.context().close();
  });

  it('tells a retail contract that menus are a restaurant feature, and that its plan may only view staff', async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await page.goto(`${ui.server.uiUrl}#/masters/menus`);
    const notice = page.getByTestId('plan-notice');
    await notice.filter({ hasText: 'food_business' }).waitFor();
    expect(await page.getByTestId('master-table').count()).toBe(0);
    expect(await page.locator('.form-problem').count()).toBe(0);
    await screenshot(page, 'masters-menus-retail');
    await notice.getByRole('button', { name: 'それでも一覧を表示' }).click();
    await settled(page);

    // Spec 4.4: retail_business may not update staff: a notice, view links, a read-only form.
    await open(page, '/masters/staffs');
    await page.getByTestId('plan-notice').filter({ hasText: 'retail_business' }).waitFor();
    const view = page.locator('[data-testid="master-table"] tbody tr').first().getByRole('link', { name: '表示' });
    await view.click();
    await page.getByLabel('氏名', { exact: true }).waitFor();
    expect(await page.getByLabel('氏名', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: '保存', exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it("says under a retail contract's read-only staff form why its rights can still be saved", async () => {
    const page = await newPage(ui.browser);
    await loginAs(page, ui.server, 'demo-retail');
    await open(page, '/masters/staffs');
    const manager = ((await apiGet('demo-retail', '/staffs?sort=staffId')).body as Array<{ staffId: string; staffName: string; staffCode: string }>).find((s) => s.staffCode === 'S001')!;
    await page.getByRole('link', { name: `${manager.staffName} を表示` }).click();
    const rights = page.getByTestId('staff-rights');
    const closing = rights.getByRole('checkbox', { name: /daily_closing/ });
    await closing.waitFor();
    expect(await page.getByLabel('氏名', { exact: true }).isDisabled()).toBe(true);
    const own = rights.getByTestId('staff-rights-own');
    expect(await own.textContent()).toBe(
      '上のスタッフ項目はこの契約のプランでは変更できませんが、権限は保存できます。権限はプラットフォームのスタッフ項目ではなく、このバックオフィス独自の設定だからです。',
    );
    await screenshot(page, 'masters-staff-rights-retail');

    // As the note says: the rights save although the form cannot.
    await closing.uncheck();
    await rights.getByRole('button', { name: '権限を保存' }).click();
    await rights.getByRole('status').waitFor();
    expect(((await apiGet('demo-retail', `/staffs/${manager.staffId}/rights`)).body as { rights: string[] }).rights).not.toContain('daily_closing');
    await closing.check();
    await rights.getByRole('button', { name: '権限を保存' }).click();
    await until('daily_closing is granted again', async () =>
      ((await apiGet('demo-retail', `/staffs/${manager.staffId}/rights`)).body as { rights: string[] }).rights.includes('daily_closing'),
    );

    await page.getByLabel('言語').selectOption('en');
    await rights.getByRole('heading', { name: 'Rights and login' }).waitFor();
    expect(await own.textContent()).toBe(
      "This contract's plan cannot change the staff fields above, but the rights can be saved: they are this back office's own setting, not one of the platform's staff fields.",
    );
    await screenshot(page, 'masters-staff-rights-retail-en');
    await page.context().close();
  });
});
