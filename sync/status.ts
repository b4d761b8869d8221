import type { AppDeps } from '../server/deps.js';
import { Applier, ItemRejected } from './apply.js';
import { CentralSync, DeadLetters, NodeRepo, type DeadLetter } from './central.js';
import { syncContext } from './context.js';
import { LinkRepo } from './link.js';

/** Skew over this is a warning in the status (DESIGN §5). */
export const SKEW_WARNING_MS = 5 * 60 * 1000;

export interface StoreSyncStatus {
  role: 'store';
  contractId: string;
  linked: boolean;
  centralUrl: string | null;
  node: number;
  online: boolean;
  outboxDepth: number;
  outboxOldestAgeMs: number | null;
  lastPushAt: string | null;
  lastPullAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  pullCursor: number;
  /** Items central refused from this store (reported by its pushes) plus pulled items this store could not apply. */
  deadLetters: number;
  clockSkewMs: number | null;
  clockSkewWarning: boolean;
  hlc: string;
}

export interface CentralSyncStatus {
  role: 'central';
  contractId: string;
  nodes: { node: number; name: string | null; revoked: boolean; highWater: number; lastPushAt: string | null; lastPullAt: string | null }[];
  changeLogSeq: number;
  deadLetters: number;
  hlc: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What `GET /sync/status` and `pos-backoffice sync status` show for one contract. */
export function syncStatus(deps: AppDeps, contractId: string): StoreSyncStatus | CentralSyncStatus {
  const ctx = syncContext(deps);
  const { db } = deps;
  const dead = new DeadLetters(ctx).openCount(contractId);
  if (deps.config.role === 'central') {
    const nodes = new NodeRepo(ctx).list(contractId).map((n) => ({
      node: n.node,
      name: n.name,
      revoked: n.revoked_at !== null,
      highWater: n.high_water,
      lastPushAt: iso(n.last_push_at),
      lastPullAt: iso(n.last_pull_at),
    }));
    const seq = (db.prepare('SELECT max(seq) FROM change_log WHERE contract_id = ?').pluck().get(contractId) as number | null) ?? 0;
    return { role: 'central', contractId, nodes, changeLogSeq: seq, deadLetters: dead, hlc: ctx.hlc.peek() };
  }
  const link = new LinkRepo(deps).get(contractId);
  const outbox = db.prepare('SELECT count(*) AS n, min(created_at) AS oldest FROM outbox WHERE contract_id = ?').get(contractId) as { n: number; oldest: number | null };
  const now = deps.clock.now().getTime();
  const skew = link?.clockSkewMs ?? null;
  return {
    role: 'store',
    contractId,
    linked: link !== undefined,
    centralUrl: link?.centralUrl ?? null,
    node: link?.node ?? deps.ids.node,
    online: link?.online ?? false,
    outboxDepth: outbox.n,
    outboxOldestAgeMs: outbox.oldest === null ? null : Math.max(0, now - outbox.oldest),
    lastPushAt: iso(link?.lastPushAt ?? null),
    lastPullAt: iso(link?.lastPullAt ?? null),
    lastAttemptAt: iso(link?.lastAttemptAt ?? null),
    lastError: link?.lastError ?? null,
    pullCursor: link?.pullCursor ?? 0,
    deadLetters: dead + (link?.centralDeadLetters ?? 0),
    clockSkewMs: skew,
    clockSkewWarning: skew !== null && Math.abs(skew) > SKEW_WARNING_MS,
    hlc: ctx.hlc.peek(),
  };
}

/**
 * Applies an open dead letter again: at central a refused push (through the push path), at a
 * store a pulled master it could not apply. Undefined when there is no such dead letter.
 */
export function retryDeadLetter(deps: AppDeps, contractId: string, id: number): DeadLetter | undefined {
  const ctx = syncContext(deps);
  if (deps.config.role === 'central') return new CentralSync(ctx).retryDeadLetter(contractId, id);
  const applier = new Applier(ctx);
  return new DeadLetters(ctx).retry(contractId, id, (row, item) => {
    if (row.direction !== 'pull') throw new ItemRejected('a store retries only items it pulled');
    applier.applyPulled(contractId, item);
  });
}
