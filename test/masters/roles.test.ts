import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import type { Plan } from '../../server/domain/plans.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const bad = (detail: string) => ({ type: 'about:blank', title: 'Bad Request', status: 400, detail });
const forbidden = (detail: string) => ({ type: 'about:blank', title: 'Forbidden', status: 403, detail });
const ADMIN = { roleId: '1', roleName: '管理者', note: null, insDateTime: AT_T0, updDateTime: AT_T0 };

let t: TestApp;
afterEach(() => t?.close());
const open = async (plan: Plan = 'retail_business') => (t = await makeTestApp({ plan }));

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await t.api(method, path, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /roles (役割・役職一覧取得)', () => {
  it('every contract has the administrator role 1; the list answers the role fields only, sorted, with fields', async () => {
    await open();
    expect(await ok('GET', '/roles')).toEqual([ADMIN]);
    await ok('POST', '/roles', { roleName: '店長', note: '店舗管理者用役割', functionControls: [{ functionId: '1', controlDivision: '4' }] });
    t.clock.advance(60_000);
    await ok('POST', '/roles', { roleName: 'アルバイト' });
    expect(await ok('GET', '/roles?sort=roleId:desc')).toEqual([
      { roleId: '2001', roleName: 'アルバイト', note: null, insDateTime: AT_T0_PLUS_1MIN, updDateTime: AT_T0_PLUS_1MIN },
      { roleId: '1001', roleName: '店長', note: '店舗管理者用役割', insDateTime: AT_T0, updDateTime: AT_T0 },
      ADMIN,
    ]);
    expect(await ok('GET', '/roles?sort=updDateTime:desc&fields=roleName&limit=1')).toEqual([{ roleName: 'アルバイト' }]);
    expect(problem(await t.api('GET', '/roles?sort=roleName'), 400).detail).toBe('[sort] roleName is not a sort key; use roleId, updDateTime with an optional :desc');
  });
});

describe('POST /roles (役割・役職登録)', () => {
  it('registers a role with its controls; function 2 and 7 give their own settings their division, 7 at 3 gives 7003 all', async () => {
    await open();
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const created = await ok('POST', '/roles', {
      roleName: '店長',
      note: '店舗管理者用役割',
      functionControls: [
        { functionId: '2', controlDivision: '2' },
        { functionId: '2003', controlDivision: '4' },
        { functionId: '7', controlDivision: '3' },
        { functionId: '1', controlDivision: '4' },
      ],
      inventoryFunctionControls: [{ functionId: '12', controlDivision: '1' }],
      alertFunctionControls: [{ alertType: '2', controlDivision: '1' }],
    });
    const product = [2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008, 2009, 2010, 2011, 2012].map((id) => ({ functionId: String(id), controlDivision: id === 2003 ? '4' : '2' }));
    expect(created).toEqual({
      roleId: '1001',
      roleName: '店長',
      note: '店舗管理者用役割',
      functionControls: [
        { functionId: '1', controlDivision: '4' },
        { functionId: '2', controlDivision: '2' },
        { functionId: '7', controlDivision: '3' },
        ...product,
        { functionId: '7001', controlDivision: '3' },
        { functionId: '7002', controlDivision: '3' },
        { functionId: '7003', controlDivision: '4' },
      ],
      inventoryFunctionControls: [{ functionId: '12', controlDivision: '1' }],
      alertFunctionControls: [{ alertType: '2', controlDivision: '1' }],
      insDateTime: AT_T0,
      updDateTime: AT_T0,
    });
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'role', id: '1001', op: 'insert' }]);
    expect(await ok('GET', '/roles/1001?with_function_controls=all&with_alert_function_controls=all')).toEqual({
      roleId: '1001',
      roleName: '店長',
      note: '店舗管理者用役割',
      functionControls: created.functionControls,
      alertFunctionControls: created.alertFunctionControls,
      insDateTime: AT_T0,
      updDateTime: AT_T0,
    });
    expect(await ok('GET', '/roles/1001?with_inventory_function_controls=all&with_function_controls=none')).toMatchObject({
      inventoryFunctionControls: created.inventoryFunctionControls,
    });
    expect(Object.keys(await ok('GET', '/roles/1001'))).toEqual(['roleId', 'roleName', 'note', 'insDateTime', 'updDateTime']);
    expect(await ok('GET', '/roles/1001?fields=roleName')).toEqual({ roleName: '店長' });
  });

  it('refuses bad bodies, naming the field', async () => {
    await open();
    const post = (body: Record<string, unknown>) => t.api('POST', '/roles', body);
    expect(problem(await post({}), 400).detail).toMatch(/^\[roleName\]/);
    expect(problem(await post({ roleName: 'あ'.repeat(31) }), 400)).toEqual(bad('[roleName] must be at most 30 characters'));
    expect(problem(await post({ roleName: 'A', note: 'x'.repeat(256) }), 400)).toEqual(bad('[note] must be at most 255 characters'));
    expect(problem(await post({ roleName: 'A', functionControls: [{ functionId: '21', controlDivision: '1' }] }), 400)).toEqual(
      bad('[functionControls[0].functionId] 21 is not a functionId of functionControls'),
    );
    expect(problem(await post({ roleName: 'A', functionControls: [{ functionId: '3', controlDivision: '1' }, { functionId: '3', controlDivision: '2' }] }), 400)).toEqual(
      bad('[functionControls[1].functionId] 3 is given twice'),
    );
    expect(problem(await post({ roleName: 'A', functionControls: [{ functionId: '3', controlDivision: '5' }] }), 400)).toEqual(
      bad('[functionControls[0].controlDivision] must be one of 1, 2, 3, 4'),
    );
    expect(problem(await post({ roleName: 'A', inventoryFunctionControls: [{ functionId: '13', controlDivision: '1' }] }), 400)).toEqual(
      bad('[inventoryFunctionControls[0].functionId] 13 is not a functionId of inventoryFunctionControls'),
    );
    expect(problem(await post({ roleName: 'A', alertFunctionControls: [{ alertType: '3', controlDivision: '1' }] }), 400)).toEqual(
      bad('[alertFunctionControls[0].alertType] 3 is not a alertType of alertFunctionControls'),
    );
    expect(problem(await post({ roleName: 'A', alertFunctionControls: [{ alertType: '1', controlDivision: '2' }] }), 400)).toEqual(
      bad('[alertFunctionControls[0].controlDivision] must be one of 0, 1'),
    );
    expect(problem(await post({ roleName: 'A', roleId: '5' }), 400).detail).toMatch(/roleId/);
    expect(await ok('GET', '/roles')).toEqual([ADMIN]);
  });
});

describe('PATCH /roles/{role_id} (役割・役職更新)', () => {
  it('changes only the keys sent; controls change by the ids sent, the others stay', async () => {
    await open();
    await ok('POST', '/roles', { roleName: '店長', functionControls: [{ functionId: '1', controlDivision: '4' }, { functionId: '3', controlDivision: '2' }] });
    t.clock.advance(60_000);
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const updated = await ok('PATCH', '/roles/1001', { functionControls: [{ functionId: '3', controlDivision: '1' }, { functionId: '4', controlDivision: '3' }] });
    expect(updated).toEqual({
      roleId: '1001',
      roleName: '店長',
      note: null,
      functionControls: [
        { functionId: '1', controlDivision: '4' },
        { functionId: '3', controlDivision: '1' },
        { functionId: '4', controlDivision: '3' },
      ],
      inventoryFunctionControls: [],
      alertFunctionControls: [],
      insDateTime: AT_T0,
      updDateTime: AT_T0_PLUS_1MIN,
    });
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'role', id: '1001', op: 'update' }]);
    expect(await ok('PATCH', '/roles/1001', { note: '説明', roleName: '副店長' })).toMatchObject({ roleName: '副店長', note: '説明', functionControls: updated.functionControls });
    expect(await ok('PATCH', '/roles/1001', { note: '' })).toMatchObject({ note: null });
  });

  it('the administrator role keeps staff management; an unknown role is a 404; bad bodies are 400s', async () => {
    await open();
    expect(problem(await t.api('PATCH', '/roles/1', { functionControls: [{ functionId: '7', controlDivision: '1' }] }), 400)).toEqual(
      bad('[functionControls[0].functionId] the administrator role (1) keeps staff management; function 7 cannot be set on it'),
    );
    expect(problem(await t.api('PATCH', '/roles/1', { functionControls: [{ functionId: '7003', controlDivision: '1' }] }), 400).detail).toMatch(/function 7003 cannot be set/);
    expect(await ok('PATCH', '/roles/1', { functionControls: [{ functionId: '5', controlDivision: '2' }] })).toMatchObject({ functionControls: [{ functionId: '5', controlDivision: '2' }] });
    expect(problem(await t.api('PATCH', '/roles/99', { roleName: 'X' }), 404)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: '[role_id] role 99 does not exist' });
    expect(problem(await t.api('PATCH', '/roles/1', { roleName: null }), 400)).toEqual(bad('[roleName] cannot be cleared; a role needs a name'));
    expect(problem(await t.api('PATCH', '/roles/1', {}), 400).detail).toBe('[body] no field to update was given');
  });
});

describe('DELETE /roles/{role_id} (役割・役職削除)', () => {
  it('deletes a role and its controls (204); the administrator role is refused; an unknown role is a 404', async () => {
    await open();
    await ok('POST', '/roles', { roleName: '店長', functionControls: [{ functionId: '1', controlDivision: '4' }] });
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    expect((await t.api('DELETE', '/roles/1001')).statusCode).toBe(204);
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'role', id: '1001', op: 'delete' }]);
    expect(t.deps.db.prepare('SELECT count(*) FROM role_function_controls').pluck().get()).toBe(0);
    expect(problem(await t.api('DELETE', '/roles/1'), 400)).toEqual(bad('[role_id] the administrator role (1) cannot be deleted'));
    expect(problem(await t.api('DELETE', '/roles/1001'), 404).detail).toBe('[role_id] role 1001 does not exist');
  });
});

describe('roles: plans, scopes and rights', () => {
  it('Standard reads and changes only the administrator role controls; name, note, other roles, list, register and delete are Premium and above', async () => {
    await open('standard');
    expect(await ok('GET', '/roles/1')).toEqual(ADMIN);
    expect(await ok('PATCH', '/roles/1', { functionControls: [{ functionId: '5', controlDivision: '2' }] })).toMatchObject({ roleId: '1' });
    expect(problem(await t.api('PATCH', '/roles/1', { roleName: 'X' }), 403)).toEqual(forbidden('[roleName] can be changed on the premium plan and above; the contract is on standard'));
    expect(problem(await t.api('PATCH', '/roles/1', { note: 'X' }), 403)).toEqual(forbidden('[note] can be changed on the premium plan and above; the contract is on standard'));
    expect(problem(await t.api('PATCH', '/roles/2', { functionControls: [] }), 403)).toEqual(forbidden('[role_id] on the standard plan only the administrator role (1) can be changed'));
    const PREMIUM = '(plans: premium, premium_plus, food_business, retail_business)';
    expect(problem(await t.api('GET', '/roles'), 403).detail).toBe(`the contract's plan standard cannot use GET /roles ${PREMIUM}`);
    expect(problem(await t.api('POST', '/roles', { roleName: 'X' }), 403).detail).toBe(`the contract's plan standard cannot use POST /roles ${PREMIUM}`);
    expect(problem(await t.api('DELETE', '/roles/1'), 403).detail).toBe(`the contract's plan standard cannot use DELETE /roles/{role_id} ${PREMIUM}`);
  });

  it('inventory and alert controls are Retail Business settings', async () => {
    await open('premium');
    expect(problem(await t.api('POST', '/roles', { roleName: 'X', inventoryFunctionControls: [{ functionId: '1', controlDivision: '1' }] }), 403)).toEqual(
      forbidden("[inventoryFunctionControls] are a Retail Business setting; the contract's plan is premium"),
    );
    expect(problem(await t.api('PATCH', '/roles/1', { alertFunctionControls: [] }), 403)).toEqual(
      forbidden("[alertFunctionControls] are a Retail Business setting; the contract's plan is premium"),
    );
    expect(await ok('POST', '/roles', { roleName: 'X', functionControls: [] })).toMatchObject({ roleId: '1001' });
  });

  it('needs pos.staffs:read to read and pos.staffs:write to write', async () => {
    await open();
    const reader = await t.tokenFor({ scopes: ['pos.staffs:read'] });
    expect((await t.api('GET', '/roles/1', undefined, reader)).statusCode).toBe(200);
    expect(problem(await t.api('POST', '/roles', { roleName: 'X' }, reader), 403).detail).toBe('[scope] the token lacks the scope pos.staffs:write');
    const other = await t.tokenFor({ scopes: ['pos.transactions:read'] });
    expect(problem(await t.api('GET', '/roles', undefined, other), 403).detail).toBe('[scope] the token lacks the scope pos.staffs:read');
  });
});
