import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Right } from '../../server/platform/http/rights.js';
import { hashPasswordSync } from '../../server/platform/auth/password.js';
import { StaffLoginRepo } from '../../server/platform/auth/staff-logins.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

/** GET/PUT /staffs/{id}/rights: the back office's rights screen (ours). */
describe('staff rights', () => {
  let t: TestApp;
  let logins: StaffLoginRepo;
  let hanako: string;
  let taro: string;
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  beforeEach(async () => {
    t = await makeTestApp({ plan: 'premium' });
    logins = new StaffLoginRepo(t.deps.db, t.deps.writer, t.clock);
    hanako = (await t.api('POST', '/staffs', { staffName: 'Hanako', staffCode: 'S001' })).json().staffId;
    taro = (await t.api('POST', '/staffs', { staffName: 'Taro', staffCode: 'S002' })).json().staffId;
  });
  afterEach(() => t.close());

  const userToken = async (code: string, rights: Right[], id: string) => {
    logins.set(t.contractId, id, hashPasswordSync('correct horse 1'), rights);
    const client = t.createClient(t.contractId, ['pos.staffs:read', 'pos.staffs:write', 'pos.transactions:read']);
    const res = await t.app.inject({
      method: 'POST',
      url: `/app/${t.contractId}/token`,
      headers: { authorization: basic(client.clientId, client.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=password&username=${code}&password=correct%20horse%201`,
    });
    return res.json().access_token as string;
  };

  it('reads and sets the rights of a staff member with a login; the new rights apply to tokens already issued', async () => {
    expect((await t.api('GET', `/staffs/${hanako}/rights`)).json()).toEqual({ staffId: hanako, login: false, rights: [] });
    const admin = await userToken('S001', ['staff_edit_all'], hanako);
    const clerkToken = await userToken('S002', ['staff_view'], taro);
    const res = await t.api('PUT', `/staffs/${taro}/rights`, { rights: ['staff_view', 'sales_view', 'sales_view'] }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ staffId: taro, login: true, rights: ['staff_view', 'sales_view'] });
    expect((await t.api('GET', `/staffs/${taro}/rights`, undefined, clerkToken)).json().rights).toEqual(['staff_view', 'sales_view']);
    // Taro's existing token now reads sales; taking the right away closes it again.
    t.clock.advance(10_000);
    const sales = await t.api('GET', '/transactions?sum_date-from=2026-11-01&sum_date-to=2026-11-22', undefined, clerkToken);
    expect(sales.statusCode, sales.body).toBe(200);
    await t.api('PUT', `/staffs/${taro}/rights`, { rights: [] }, admin);
    t.clock.advance(10_000);
    expect((await t.api('GET', '/transactions?sum_date-from=2026-11-01&sum_date-to=2026-11-22', undefined, clerkToken)).statusCode).toBe(403);
  });

  it('only staff_edit_all may set rights: an editor excluding salary may not grant himself more', async () => {
    const editor = await userToken('S002', ['staff_edit_excluding_salary'], taro);
    const res = await t.api('PUT', `/staffs/${taro}/rights`, { rights: ['staff_edit_all'] }, editor);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe('[right] the user token lacks the right staff_edit_all');
    expect(logins.find(t.contractId, taro)!.rights).toEqual(['staff_edit_excluding_salary']);
  });

  it('names the field: unknown rights, a staff member without a login; 404 for an unknown staff member', async () => {
    expect(problem(await t.api('PUT', `/staffs/${hanako}/rights`, { rights: ['staff_view'] }), 400).detail).toBe(
      `[rights] staff member ${hanako} has no back-office login; set a password first (pos-backoffice staff-password set)`,
    );
    expect(problem(await t.api('PUT', `/staffs/${hanako}/rights`, { rights: ['root'] }), 400).detail).toMatch(/^\[rights\[0\]\]/);
    expect(problem(await t.api('PUT', `/staffs/${hanako}/rights`, {}), 400).detail).toMatch(/^\[rights\]/);
    expect(problem(await t.api('GET', '/staffs/999/rights'), 404).detail).toMatch(/999/);
    expect(problem(await t.api('PUT', '/staffs/999/rights', { rights: [] }), 404).detail).toMatch(/999/);
  });
});
