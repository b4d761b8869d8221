import { SyncAgent } from '../../sync/agent.js';
import { CentralSync, NodeRepo, type PushedItem } from '../../sync/central.js';
import { syncContext } from '../../sync/context.js';
import { entityNamed, RecordStore, type CompactColumns } from '../../sync/entities.js';
import { LinkRepo } from '../../sync/link.js';
import { CONTRACT, makeInstance, type Instance } from './helpers.js';

/**
 * The set-up of the push-many tests (push-many*.test.ts): a case pushes the same items to two
 * centrals on the run's engine, to `central` as one batch and to `single` one item per batch (the
 * one-by-one path), and compares what each answered and stored.
 */
export interface PushManyFixture {
  /** Takes the batch; the store is linked to it. */
  central: Instance;
  /** Takes the items one per batch; holds the same parents as `central`. */
  single: Instance;
  store: Instance;
  /** The store (the master) and its register, made at central and synced to the store. */
  shop: string;
  terminal: string;
  close(): Promise<void>;
}

/**
 * Both centrals with node `node`, a store PC linked to `central` as that node and synced (it has
 * the store `shop`, made at central, then `masters(central, shop)`, and its register `terminal`);
 * the store and register copied to `single`.
 */
export async function pushManyFixture(node: number, masters?: (central: Instance, shop: string) => Promise<void>): Promise<PushManyFixture> {
  const central = await makeInstance('central', 0);
  const single = await makeInstance('central', 0);
  const store = await makeInstance('store', node);
  await central.up();
  const { secret } = new NodeRepo(syncContext(central.deps)).add(CONTRACT, node);
  new NodeRepo(syncContext(single.deps)).add(CONTRACT, node);
  const shop = (await central.ok('POST', '/stores', { storeName: 'Main' })).storeId as string;
  await masters?.(central, shop);
  new LinkRepo(store.deps).link({ contractId: CONTRACT, centralUrl: central.url!, node, secret });
  const agent = new SyncAgent(store.deps);
  await agent.drain(CONTRACT);
  const terminal = (await store.ok('POST', '/terminals', { storeId: shop, terminalName: 'R1' }))[0].terminalId as string;
  await agent.drain(CONTRACT);
  copyRecord(central, single, 'store', shop);
  copyRecord(central, single, 'terminal', terminal);
  return {
    central,
    single,
    store,
    shop,
    terminal,
    async close() {
      await store.close();
      await central.close();
      await single.close();
    },
  };
}

/** Writes `from`'s record of `entity` `id` at `to` as it stands (a sale's parent `to` did not get by sync). */
export function copyRecord(from: Instance, to: Instance, entity: string, id: string): void {
  const def = entityNamed(entity)!;
  const record = new RecordStore(from.deps.db).read(def, CONTRACT, id)!;
  to.deps.db.transaction(() => new RecordStore(to.deps.db).write(def, CONTRACT, id, record))();
}

/** Pushes `items` from node `node` to `central` as one batch and to `single` one per batch; both answers, merged like one. */
export function pushBoth(central: Instance, single: Instance, node: number, items: PushedItem[], tables: CompactColumns = {}) {
  const batch = new CentralSync(syncContext(central.deps)).push(CONTRACT, node, items, tables);
  const oneByOne = items.map((item) => new CentralSync(syncContext(single.deps)).push(CONTRACT, node, [item], tables));
  const merged = {
    acked: oneByOne.at(-1)!.acked,
    applied: oneByOne.reduce((n, a) => n + a.applied, 0),
    skipped: oneByOne.reduce((n, a) => n + a.skipped, 0),
    deadLetters: oneByOne.flatMap((a) => a.deadLetters),
  };
  const shape = (a: typeof merged) => ({ ...a, deadLetters: a.deadLetters.map((d) => ({ seq: d.seq, reason: d.reason })) });
  return { batch: shape(batch), oneByOne: shape(merged) };
}
