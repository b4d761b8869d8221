import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTRACT, centralAndTwoStores, count, type CentralAndTwoStores, type Instance } from './helpers.js';

/** A member's points merge by movements across stores and head office, never last writer wins. */

let net: CentralAndTwoStores;
let central: Instance;
let east: Instance;
let west: Instance;
let member: string;

const sync = (store: Instance) => net.sync(store);
const balance = async (i: Instance) => {
  const m = await i.ok('GET', `/customers/${member}`);
  return [m.point, m.mile, m.lastName];
};
const add = (i: Instance, point: string, mile = '0') => i.ok('POST', `/customers/${member}/point/add`, { point, mile });

beforeEach(async () => {
  net = await centralAndTwoStores(async (head) => {
    member = (await head.ok('POST', '/customers', { customerCode: 'M1', lastName: 'Yamada', firstName: 'Hanako', sex: '2', mailReceiveFlag: '1', point: '100' })).customerId;
  });
  ({ central, east, west } = net);
});
afterEach(() => net.close());

describe('point balances', () => {
  it('two stores and head office giving and taking points while apart add up everywhere; the member’s other fields still go to the later edit', async () => {
    expect(await balance(east)).toEqual(['100', '0', 'Yamada']);
    // All three apart: east gives 10 points and 2 miles and renames the member, west takes 30, head office gives 20.
    east.clock.advance(1000);
    await add(east, '10', '2');
    await east.ok('PATCH', `/customers/${member}`, { lastName: 'Yamada-East' });
    west.clock.advance(2000);
    await add(west, '-30');
    central.clock.advance(3000);
    await add(central, '20');

    await sync(east);
    await sync(west);
    await sync(east);
    for (const i of [central, east, west]) expect(await balance(i)).toEqual(['100', '2', 'Yamada-East']);
    // Each movement is recorded once at head office, with its store.
    expect(count(central.deps, 'SELECT count(*) FROM customer_point_movements WHERE customer_id = ?', member)).toBe(4);
    // Balances are no conflict: only real field edits are ever logged as losers.
    expect(count(central.deps, 'SELECT count(*) FROM sync_conflicts')).toBe(0);
    expect(count(east.deps, 'SELECT count(*) FROM sync_conflicts')).toBe(0);
  });

  it('a store counts its own movements still waiting in the outbox on top of the balance it pulls', async () => {
    await add(central, '50'); // 150 at head office
    await add(east, '-40'); // east made this while head office was giving
    // Pull only (the push has not gone out yet): east shows head office's 150 less its own 40.
    await net.agent(east).pull(CONTRACT);
    expect(await balance(east)).toEqual(['110', '0', 'Yamada']);
    expect(count(east.deps, "SELECT count(*) FROM outbox WHERE entity = 'customer_point_movement'")).toBe(1);
    await sync(east);
    expect(await balance(central)).toEqual(['110', '0', 'Yamada']);
    await sync(west);
    expect(await balance(west)).toEqual(['110', '0', 'Yamada']);
  });

  it('a member made at a store with points starts from them at head office once, not twice', async () => {
    const made = (await east.ok('POST', '/customers', { customerCode: 'M2', lastName: 'Mori', firstName: 'Aki', sex: '0', mailReceiveFlag: '1', point: '70' })).customerId;
    await sync(east);
    await sync(west);
    for (const i of [central, west]) expect((await i.ok('GET', `/customers/${made}`)).point).toBe('70');
  });
});
