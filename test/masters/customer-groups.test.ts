import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/write.js';
import { makeTestApp, problem, type TestApp } from '../helpers/app.js';

const AT_T0 = '2026-11-22T10:00:00+09:00';
const AT_T0_PLUS_1MIN = '2026-11-22T10:01:00+09:00';
const problemOf = (status: number, title: string) => (detail: string) => ({ type: 'about:blank', title, status, detail });
const badRequest = problemOf(400, 'Bad Request');
const notFound = problemOf(404, 'Not Found');
const forbidden = problemOf(403, 'Forbidden');

describe('customer group sections', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const put = (id: string, customerGroupSectionLabel: unknown, token?: string) =>
    t.api('PUT', `/customer_group_sections/${id}`, { customerGroupSectionLabel }, token);

  it('starts with section 1 that every contract gets', async () => {
    const res = await t.api('GET', '/customer_group_sections');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ customerGroupSectionId: '1', customerGroupSectionLabel: 'Customer group', insDateTime: AT_T0, updDateTime: AT_T0 }]);
  });

  it('creates a section with the platform body, then replaces its label keeping insDateTime', async () => {
    const created = await put('3', 'Age band');
    expect(created.statusCode).toBe(200);
    expect(created.json()).toEqual({ customerGroupSectionId: '3', customerGroupSectionLabel: 'Age band', insDateTime: AT_T0, updDateTime: AT_T0 });

    t.clock.advance(60_000);
    const replaced = await put('3', 'Region');
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toEqual({
      customerGroupSectionId: '3',
      customerGroupSectionLabel: 'Region',
      insDateTime: AT_T0,
      updDateTime: AT_T0_PLUS_1MIN,
    });
  });

  it('no longer takes or answers `label` (the platform names it customerGroupSectionLabel)', async () => {
    expect(problem(await t.api('PUT', '/customer_group_sections/2', { label: 'Region' }), 400).detail).toBe(
      '[customerGroupSectionLabel] is required; [label] is not a known field',
    );
    expect((await put('2', 'Region')).json()).not.toHaveProperty('label');
  });

  it('deletes a section without groups when the label is empty; answers the section with an empty label', async () => {
    await put('4', 'Tier');
    t.clock.advance(60_000);
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    const res = await put('4', '');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ customerGroupSectionId: '4', customerGroupSectionLabel: '', insDateTime: AT_T0, updDateTime: AT_T0_PLUS_1MIN });
    expect(changes).toEqual([{ contractId: t.contractId, entity: 'customer_group_section', id: '4', op: 'delete' }]);
    expect((await t.api('GET', '/customer_group_sections')).json().map((s: { customerGroupSectionId: string }) => s.customerGroupSectionId)).toEqual(['1']);
    expect(problem(await t.api('POST', '/customer_groups', { customerGroupSectionId: '4', label: 'VIP' }), 400).detail).toBe(
      '[customerGroupSectionId] customer group section 4 does not exist',
    );
    // Deleting an absent section changes nothing and answers alike; a new PUT creates it again.
    expect((await put('4', '')).json()).toMatchObject({ customerGroupSectionId: '4', customerGroupSectionLabel: '' });
    expect(changes).toHaveLength(1);
    expect((await put('4', 'Tier 2')).json()).toMatchObject({ customerGroupSectionLabel: 'Tier 2', insDateTime: AT_T0_PLUS_1MIN });
  });

  it('refuses to delete a section that has customer groups, naming them; the section stays', async () => {
    await put('2', 'Region');
    const a = (await t.api('POST', '/customer_groups', { customerGroupSectionId: '2', label: 'Kanto' })).json().customerGroupId;
    const b = (await t.api('POST', '/customer_groups', { customerGroupSectionId: '2', label: 'Kansai' })).json().customerGroupId;
    expect(problem(await put('2', ''), 400)).toEqual(
      badRequest(`[customerGroupSectionLabel] section 2 cannot be deleted: customer groups ${a}, ${b} belong to it`),
    );
    expect((await t.api('GET', '/customer_group_sections')).json()).toMatchObject([{ customerGroupSectionId: '1' }, { customerGroupSectionLabel: 'Region' }]);
  });

  it('lists every existing section in id order; takes the paging and update-time parameters of every list', async () => {
    await put('5', 'Five');
    t.clock.advance(60_000);
    await put('2', 'Two');
    const res = await t.api('GET', '/customer_group_sections');
    expect(res.statusCode).toBe(200);
    expect(res.headers.link).toBeUndefined();
    const pairs = (r: { json(): unknown }) =>
      (r.json() as { customerGroupSectionId: string; customerGroupSectionLabel: string }[]).map((s) => [s.customerGroupSectionId, s.customerGroupSectionLabel]);
    expect(pairs(res)).toEqual([
      ['1', 'Customer group'],
      ['2', 'Two'],
      ['5', 'Five'],
    ]);
    expect(pairs(await t.api('GET', '/customer_group_sections?limit=1000&page=1'))).toHaveLength(3);
    expect(pairs(await t.api('GET', '/customer_group_sections?sort=customerGroupSectionId:desc&limit=2'))).toEqual([
      ['5', 'Five'],
      ['2', 'Two'],
    ]);
    expect(pairs(await t.api('GET', `/customer_group_sections?upd_date_time-from=${encodeURIComponent(AT_T0_PLUS_1MIN)}`))).toEqual([['2', 'Two']]);
  });

  it('refuses a section id other than 1 to 5', async () => {
    for (const bad of ['0', '6', '03', '-1', 'x']) {
      const body = problem(await put(bad, 'L'), 400);
      expect(body).toEqual(badRequest('[customer_group_section_id] must be 1 to 5'));
    }
    expect((await t.api('GET', '/customer_group_sections')).json()).toHaveLength(1);
  });

  it('names the bad label and refuses unknown keys', async () => {
    expect(problem(await t.api('PUT', '/customer_group_sections/2'), 400).detail).toBe('[body] is required');
    expect(problem(await t.api('PUT', '/customer_group_sections/2', {}), 400).detail).toBe('[customerGroupSectionLabel] is required');
    expect(problem(await put('2', ' '), 400).detail).toBe('[customerGroupSectionLabel] must not be blank; an empty string deletes the section');
    expect(problem(await put('2', null), 400).detail).toContain('[customerGroupSectionLabel]');
    expect(problem(await put('2', 'x'.repeat(86)), 400).detail).toBe('[customerGroupSectionLabel] must be at most 85 characters');
    expect(problem(await t.api('PUT', '/customer_group_sections/2', { customerGroupSectionLabel: 'L', note: 'n' }), 400).detail).toBe(
      '[note] is not a known field',
    );
    // 85 characters counted as code points, not UTF-16 units
    expect((await put('2', '𠮷'.repeat(85))).statusCode).toBe(200);
  });

  it('needs pos.customers:write to PUT and pos.customers:read to list', async () => {
    const reader = await t.tokenFor({ scopes: ['pos.customers:read'] });
    expect(problem(await put('2', 'L', reader), 403).detail).toBe('[scope] the token lacks the scope pos.customers:write');
    const other = await t.tokenFor({ scopes: ['pos.stores:read'] });
    expect(problem(await t.api('GET', '/customer_group_sections', undefined, other), 403).detail).toBe(
      '[scope] the token lacks the scope pos.customers:read',
    );
  });
});

describe('customer groups', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(() => t.close());

  const create = async (body: Record<string, string>) => {
    const res = await t.api('POST', '/customer_groups', body);
    if (res.statusCode !== 200) throw new Error(`create failed: ${res.body}`);
    return res.json() as { customerGroupId: string };
  };

  it('creates a group with defaults and renders times in the contract zone', async () => {
    const res = await t.api('POST', '/customer_groups', { customerGroupSectionId: '1', label: 'VIP' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      customerGroupId: '1001',
      customerGroupSectionId: '1',
      label: 'VIP',
      displayFlag: '1',
      displaySequence: '0',
      insDateTime: AT_T0,
      updDateTime: AT_T0,
    });
  });

  it('creates a group with every field given, normalising integer strings', async () => {
    await t.api('PUT', '/customer_group_sections/2', { customerGroupSectionLabel: 'Region' });
    const res = await t.api('POST', '/customer_groups', {
      customerGroupSectionId: '02',
      label: 'Kanto',
      displayFlag: '0',
      displaySequence: '-0007',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ customerGroupSectionId: '2', label: 'Kanto', displayFlag: '0', displaySequence: '-7' });
  });

  it('names every bad field', async () => {
    expect(problem(await t.api('POST', '/customer_groups', {}), 400).detail).toBe('[customerGroupSectionId] is required; [label] is required');
    const body = problem(
      await t.api('POST', '/customer_groups', { customerGroupSectionId: 'a', label: '', displayFlag: '2', displaySequence: '1.5', memo: 'x' }),
      400,
    );
    expect(body).toEqual(
      badRequest(
        '[customerGroupSectionId] must be an integer of up to 9 digits; [label] must not be empty; ' +
          '[displayFlag] must be one of 0, 1; [displaySequence] must be an integer of up to 9 digits; [memo] is not a known field',
      ),
    );
    expect(problem(await t.api('POST', '/customer_groups', { customerGroupSectionId: '1', label: 'x'.repeat(86) }), 400).detail).toBe(
      '[label] must be at most 85 characters',
    );
  });

  it('refuses a section that does not exist, until it is created', async () => {
    const body = problem(await t.api('POST', '/customer_groups', { customerGroupSectionId: '4', label: 'VIP' }), 400);
    expect(body).toEqual(badRequest('[customerGroupSectionId] customer group section 4 does not exist'));
    expect(problem(await t.api('POST', '/customer_groups', { customerGroupSectionId: '9', label: 'VIP' }), 400).detail).toBe(
      '[customerGroupSectionId] customer group section 9 does not exist',
    );
    await t.api('PUT', '/customer_group_sections/4', { customerGroupSectionLabel: 'Tier' });
    expect((await t.api('POST', '/customer_groups', { customerGroupSectionId: '4', label: 'VIP' })).json().customerGroupSectionId).toBe('4');
  });

  it('gets one, 404s an unknown one and 400s a malformed id', async () => {
    const { customerGroupId } = await create({ customerGroupSectionId: '1', label: 'VIP' });
    const res = await t.api('GET', `/customer_groups/${customerGroupId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ customerGroupId, label: 'VIP' });
    expect(problem(await t.api('GET', '/customer_groups/424242'), 404)).toEqual(
      notFound('[customer_group_id] customer group 424242 does not exist'),
    );
    expect(problem(await t.api('GET', '/customer_groups/abc'), 400).detail).toBe('[customer_group_id] must be 1 to 9 digits');
  });

  it('keeps each contract to its own groups', async () => {
    const { customerGroupId } = await create({ customerGroupSectionId: '1', label: 'VIP' });
    t.addContract('other', 'standard');
    const token = await t.tokenFor({ contractId: 'other' });
    const url = `/other/pos/customer_groups/${customerGroupId}`;
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(problem(res, 404).detail).toBe(`[customer_group_id] customer group ${customerGroupId} does not exist`);
  });

  describe('PATCH (spec 4.1)', () => {
    let groupId: string;
    const original = { customerGroupSectionId: '1', label: 'VIP', displayFlag: '1', displaySequence: '5' };
    beforeEach(async () => {
      groupId = (await create(original)).customerGroupId;
      await t.api('PUT', '/customer_group_sections/2', { customerGroupSectionLabel: 'Region' });
      t.clock.advance(60_000);
    });

    const patch = (body: unknown) => t.api('PATCH', `/customer_groups/${groupId}`, body);
    const expectOnly = async (body: Record<string, string>, changed: Record<string, string>) => {
      const res = await patch(body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ customerGroupId: groupId, ...original, ...changed, insDateTime: AT_T0, updDateTime: AT_T0_PLUS_1MIN });
      expect((await t.api('GET', `/customer_groups/${groupId}`)).json()).toEqual(res.json());
    };

    it('changes customerGroupSectionId alone', () => expectOnly({ customerGroupSectionId: '2' }, { customerGroupSectionId: '2' }));
    it('changes label alone', () => expectOnly({ label: 'Gold' }, { label: 'Gold' }));
    it('changes displayFlag alone', () => expectOnly({ displayFlag: '0' }, { displayFlag: '0' }));
    it('changes displaySequence alone', () => expectOnly({ displaySequence: '012' }, { displaySequence: '12' }));
    it('changes several keys at once', () =>
      expectOnly({ label: 'Gold', displaySequence: '-3' }, { label: 'Gold', displaySequence: '-3' }));

    it('400s a section that does not exist and leaves the group alone', async () => {
      expect(problem(await patch({ customerGroupSectionId: '3', label: 'Gold' }), 400)).toEqual(
        badRequest('[customerGroupSectionId] customer group section 3 does not exist'),
      );
      expect((await t.api('GET', `/customer_groups/${groupId}`)).json()).toMatchObject({ label: 'VIP', updDateTime: AT_T0 });
    });

    it('404s an unknown group, before looking at the section sent', async () => {
      const expected = notFound('[customer_group_id] customer group 999999 does not exist');
      expect(problem(await t.api('PATCH', '/customer_groups/999999', { label: 'Gold' }), 404)).toEqual(expected);
      expect(problem(await t.api('PATCH', '/customer_groups/999999', { customerGroupSectionId: '3' }), 404)).toEqual(expected);
    });

    it('refuses an empty body, unknown keys and clearing the label', async () => {
      expect(problem(await patch(undefined), 400).detail).toBe('[body] is required');
      expect(problem(await patch({}), 400).detail).toBe('[body] no field to update was given');
      expect(problem(await patch({ memo: 'x' }), 400).detail).toBe('[memo] is not a known field; [body] no field to update was given');
      expect(problem(await patch({ label: 'Gold', memo: 'x' }), 400).detail).toBe('[memo] is not a known field');
      expect(problem(await patch({ label: null }), 400).detail).toBe('[label] cannot be cleared; a customer group needs a label');
      expect(problem(await patch({ label: '' }), 400).detail).toBe('[label] must not be empty');
      expect(problem(await patch({ displayFlag: '' }), 400).detail).toBe('[displayFlag] must be one of 0, 1');
      expect(problem(await patch({ displaySequence: 1 }), 400).detail).toBe('[displaySequence] Invalid input: expected string, received number');
      expect((await t.api('GET', `/customer_groups/${groupId}`)).json()).toMatchObject({ label: 'VIP', updDateTime: AT_T0 });
    });

    it('needs the pos.customers:write scope', async () => {
      const reader = await t.tokenFor({ scopes: ['pos.customers:read'] });
      expect(problem(await t.api('PATCH', `/customer_groups/${groupId}`, { label: 'Gold' }, reader), 403)).toEqual(
        forbidden('[scope] the token lacks the scope pos.customers:write'),
      );
      expect((await t.api('GET', `/customer_groups/${groupId}`, undefined, reader)).statusCode).toBe(200);
    });

    it('answers 401 without a token', async () => {
      const res = await t.app.inject({ method: 'PATCH', url: `/${t.contractId}/pos/customer_groups/${groupId}`, payload: { label: 'Gold' } });
      expect(problem(res, 401).detail).toBe('a bearer token is required (Authorization: Bearer <token>)');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });
  });

  it('refuses PATCH to a plan the spec does not list, naming the plan', async () => {
    const e = await makeTestApp({ plan: 'enterprise' });
    try {
      // Registering and reading are open to every plan; only 4.1 names plans.
      const created = await e.api('POST', '/customer_groups', { customerGroupSectionId: '1', label: 'VIP' });
      expect(created.statusCode).toBe(200);
      const body = problem(await e.api('PATCH', `/customer_groups/${created.json().customerGroupId}`, { label: 'Gold' }), 403);
      expect(body).toEqual(
        forbidden(
          "the contract's plan enterprise cannot use PATCH /customer_groups/{customer_group_id} " +
            '(plans: standard, premium, premium_plus, food_business, retail_business)',
        ),
      );
    } finally {
      await e.close();
    }
  });

  it('reports every write as a change, inside its transaction', async () => {
    const changes: Change[] = [];
    t.deps.writer.onChange((c) => changes.push(c));
    await t.api('PUT', '/customer_group_sections/2', { customerGroupSectionLabel: 'Region' });
    await t.api('PUT', '/customer_group_sections/2', { customerGroupSectionLabel: 'Area' });
    const { customerGroupId } = await create({ customerGroupSectionId: '2', label: 'VIP' });
    await t.api('PATCH', `/customer_groups/${customerGroupId}`, { displayFlag: '0' });
    await t.api('PATCH', `/customer_groups/${customerGroupId}`, { customerGroupSectionId: '5' }); // refused: no change
    const contractId = t.contractId;
    expect(changes).toEqual([
      { contractId, entity: 'customer_group_section', id: '2', op: 'insert' },
      { contractId, entity: 'customer_group_section', id: '2', op: 'update' },
      { contractId, entity: 'customer_group', id: customerGroupId, op: 'insert' },
      { contractId, entity: 'customer_group', id: customerGroupId, op: 'update' },
    ]);
  });

  describe('list', () => {
    beforeEach(async () => {
      await t.api('PUT', '/customer_group_sections/2', { customerGroupSectionLabel: 'Region' });
      // ids 1001..5001 in creation order
      await create({ customerGroupSectionId: '2', label: 'A', displaySequence: '30' });
      await create({ customerGroupSectionId: '1', label: 'B', displaySequence: '10', displayFlag: '0' });
      await create({ customerGroupSectionId: '2', label: 'C', displaySequence: '20' });
      await create({ customerGroupSectionId: '1', label: 'D', displaySequence: '10' });
      await create({ customerGroupSectionId: '1', label: 'E', displaySequence: '-5' });
    });

    const labels = (res: { json(): unknown }) => (res.json() as { label: string }[]).map((g) => g.label);

    it('lists by customerGroupId by default, without a Link when one page holds all', async () => {
      const res = await t.api('GET', '/customer_groups');
      expect(res.statusCode).toBe(200);
      expect(labels(res)).toEqual(['A', 'B', 'C', 'D', 'E']);
      expect(res.json()[0]).toEqual({
        customerGroupId: '1001',
        customerGroupSectionId: '2',
        label: 'A',
        displayFlag: '1',
        displaySequence: '30',
        insDateTime: AT_T0,
        updDateTime: AT_T0,
      });
      expect(res.headers.link).toBeUndefined();
    });

    it('filters by section and display flag', async () => {
      expect(labels(await t.api('GET', '/customer_groups?customer_group_section_id=1'))).toEqual(['B', 'D', 'E']);
      expect(labels(await t.api('GET', '/customer_groups?display_flag=0'))).toEqual(['B']);
      expect(labels(await t.api('GET', '/customer_groups?customer_group_section_id=2&display_flag=1'))).toEqual(['A', 'C']);
      expect(labels(await t.api('GET', '/customer_groups?customer_group_section_id=4'))).toEqual([]);
      expect(problem(await t.api('GET', '/customer_groups?display_flag=2'), 400).detail).toBe('[display_flag] must be one of 0, 1');
      expect(problem(await t.api('GET', '/customer_groups?colour=red'), 400).detail).toBe('[colour] is not a known field');
    });

    it('sorts by the listed keys, numerically, ties by customerGroupId', async () => {
      expect(labels(await t.api('GET', '/customer_groups?sort=displaySequence'))).toEqual(['E', 'B', 'D', 'C', 'A']);
      expect(labels(await t.api('GET', '/customer_groups?sort=displaySequence:desc'))).toEqual(['A', 'C', 'B', 'D', 'E']);
      expect(labels(await t.api('GET', '/customer_groups?sort=customerGroupSectionId:desc,displaySequence'))).toEqual(['C', 'A', 'E', 'B', 'D']);
      expect(labels(await t.api('GET', '/customer_groups?sort=customerGroupId:desc'))).toEqual(['E', 'D', 'C', 'B', 'A']);
      expect(problem(await t.api('GET', '/customer_groups?sort=label'), 400).detail).toBe(
        '[sort] label is not a sort key; use customerGroupId, customerGroupSectionId, displaySequence with an optional :desc',
      );
    });

    it('pages with absolute prev/next links that keep the other query parameters', async () => {
      const base = 'http://localhost/test-contract/pos/customer_groups';
      const first = await t.api('GET', '/customer_groups?limit=2&sort=displaySequence:desc&display_flag=1');
      expect(labels(first)).toEqual(['A', 'C']);
      expect(first.headers.link).toBe(`<${base}?limit=2&sort=displaySequence%3Adesc&display_flag=1&page=2>; rel="next"`);

      const filteredLast = await t.api('GET', '/customer_groups?limit=2&page=2&sort=displaySequence:desc&display_flag=1');
      expect(labels(filteredLast)).toEqual(['D', 'E']);
      // display_flag=1 leaves four groups: page 2 of 2 is the last one
      expect(filteredLast.headers.link).toBe(`<${base}?limit=2&page=1&sort=displaySequence%3Adesc&display_flag=1>; rel="prev"`);

      const middle = await t.api('GET', '/customer_groups?limit=2&page=2');
      expect(labels(middle)).toEqual(['C', 'D']);
      expect(middle.headers.link).toBe(`<${base}?limit=2&page=1>; rel="prev", <${base}?limit=2&page=3>; rel="next"`);

      const last = await t.api('GET', '/customer_groups?limit=2&page=3');
      expect(labels(last)).toEqual(['E']);
      expect(last.headers.link).toBe(`<${base}?limit=2&page=2>; rel="prev"`);

      const beyond = await t.api('GET', '/customer_groups?page=9&limit=2');
      expect(beyond.json()).toEqual([]);
      expect(beyond.headers.link).toBe(`<${base}?page=8&limit=2>; rel="prev"`);
    });

    it('bounds limit and page', async () => {
      expect(problem(await t.api('GET', '/customer_groups?limit=1001'), 400).detail).toBe('[limit] limit must be at most 1000');
      expect(problem(await t.api('GET', '/customer_groups?limit=0'), 400).detail).toBe('[limit] limit must be at least 1');
      expect(problem(await t.api('GET', '/customer_groups?page=x'), 400).detail).toBe('[page] page must be a positive integer');
      expect(labels(await t.api('GET', '/customer_groups?limit=1000'))).toHaveLength(5);
    });
  });
});
