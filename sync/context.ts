import type { AppDeps } from '../server/deps.js';
import { RecordStore } from './entities.js';
import { Hlc } from './hlc.js';

/** The sync parts shared by one instance's hooks, routes, agent and status: one HLC per database. */
export interface SyncContext {
  deps: AppDeps;
  hlc: Hlc;
  records: RecordStore;
  /** The node number of this instance: central 0, a store its id allocator's node. */
  node: number;
}

const contexts = new WeakMap<AppDeps, SyncContext>();

export function syncContext(deps: AppDeps): SyncContext {
  let ctx = contexts.get(deps);
  if (!ctx) {
    const node = deps.ids.node;
    ctx = { deps, hlc: new Hlc(deps.db, deps.clock, node), records: new RecordStore(deps.db), node };
    contexts.set(deps, ctx);
  }
  return ctx;
}
