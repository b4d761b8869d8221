import { randomBytes } from 'node:crypto';
import { Conflict } from '../server/platform/http/problem.js';
import { hashSecret, secretMatches } from '../server/platform/auth/repo.js';
import { deferringWrites, dialectOf } from '../server/db/engine.js';
import { isDatabaseUnavailable } from '../server/db/pg/errors.js';
import { Applier, ItemRejected, latestHlc, type SyncItem } from './apply.js';
import type { SyncContext } from './context.js';
import { ENTITIES, entityNamed, expandCompact, type CompactColumns, type SyncRecord } from './entities.js';
import { ChangeLog } from './change-log.js';
import { Versions } from './versions.js';
import type { PullAnswer, PushAnswer, PushItem } from './wire.js';

/** A store node of a contract, as central knows it. */
export interface NodeRow {
  contract_id: string;
  node: number;
  name: string | null;
  secret_hash: string;
  created_at: number;
  revoked_at: number | null;
  high_water: number;
  last_push_at: number | null;
  last_pull_at: number | null;
  installation_id: string | null;
}

export class NodeExistsError extends Error {}

/** Central: the nodes allowed to push (node add / list / revoke) and their authentication. */
export class NodeRepo {
  constructor(private readonly ctx: SyncContext) {}

  private get db() {
    return this.ctx.deps.db;
  }

  /**
   * Registers a node and returns its secret, shown once (only its hash is kept). A node number is
   * never given out twice, revoked or not: ids carry it (DESIGN §4), so a new installation under
   * an old number would mint ids head office already holds.
   */
  add(contractId: string, node: number, name?: string): { contractId: string; node: number; name: string | null; secret: string } {
    const secret = `nsec_${randomBytes(24).toString('base64url')}`;
    return this.ctx.deps.writer.write(() => {
      const existing = this.find(contractId, node);
      if (existing && existing.revoked_at === null) throw new NodeExistsError(`node ${node} of contract ${contractId} already exists; revoke it first`);
      if (existing) throw new NodeExistsError(`node ${node} of contract ${contractId} was used before and revoked; its ids are at head office, so add the store under a new node number`);
      const now = this.ctx.deps.clock.now().getTime();
      this.db.prepare('INSERT INTO sync_nodes (contract_id, node, name, secret_hash, created_at) VALUES (?, ?, ?, ?, ?)').run(contractId, node, name ?? null, hashSecret(secret), now);
      return { contractId, node, name: name ?? null, secret };
    });
  }

  find(contractId: string, node: number): NodeRow | undefined {
    return this.db.prepare('SELECT * FROM sync_nodes WHERE contract_id = ? AND node = ?').get(contractId, node) as NodeRow | undefined;
  }

  /**
   * The node's row, locked until the write transaction it is read in ends: another central
   * process's push of the same node waits here and then reads the high-water mark this one
   * commits (dialect forUpdate; SQLite's one writer already waits).
   */
  lock(contractId: string, node: number): NodeRow | undefined {
    return this.db.prepare(`SELECT * FROM sync_nodes WHERE contract_id = ? AND node = ? ${dialectOf(this.db).forUpdate()}`).get(contractId, node) as NodeRow | undefined;
  }

  list(contractId?: string): NodeRow[] {
    return (
      contractId === undefined
        ? this.db.prepare('SELECT * FROM sync_nodes ORDER BY contract_id, node').all()
        : this.db.prepare('SELECT * FROM sync_nodes WHERE contract_id = ? ORDER BY node').all(contractId)
    ) as NodeRow[];
  }

  /**
   * Ties the node to the installation that pushes with it first; another installation (a data dir
   * set up again, or a copy of the secret) is refused before anything is applied: its ids and
   * sequence would collide with what the node already pushed.
   */
  claim(row: NodeRow, installation: string): void {
    if (row.installation_id === installation) return;
    const refused = this.claimedByOther(row, installation);
    if (refused) throw refused;
    this.db.prepare('UPDATE sync_nodes SET installation_id = ? WHERE contract_id = ? AND node = ?').run(installation, row.contract_id, row.node);
  }

  /** Returns false when there is no such active node. */
  revoke(contractId: string, node: number): boolean {
    return this.ctx.deps.writer.write(
      () =>
        this.db.prepare('UPDATE sync_nodes SET revoked_at = ? WHERE contract_id = ? AND node = ? AND revoked_at IS NULL').run(this.ctx.deps.clock.now().getTime(), contractId, node)
          .changes === 1,
    );
  }

  /** The active node whose secret matches, or undefined. */
  authenticate(contractId: string, node: number, secret: string): NodeRow | undefined {
    const judged = this.judge(contractId, node, secret);
    return 'row' in judged ? judged.row : undefined;
  }

  /**
   * Why a node's credentials fail, so `link` can name what the operator got wrong. Revocation is
   * told only to a caller who holds the secret; an unknown node and a wrong secret are told apart
   * (node numbers are not secret: they are printed on every id the store mints).
   */
  judge(contractId: string, node: number, secret: string): { row: NodeRow } | { refused: 'unknown' | 'secret' | 'revoked' } {
    const row = this.find(contractId, node);
    if (!row) return { refused: 'unknown' };
    if (!secretMatches(secret, row.secret_hash)) return { refused: 'secret' };
    if (row.revoked_at !== null) return { refused: 'revoked' };
    return { row };
  }

  /** The 409 a push from another installation gets, or undefined when `installation` may use the node. */
  claimedByOther(row: NodeRow, installation: string): Conflict | undefined {
    if (row.installation_id === null || row.installation_id === installation) return undefined;
    return new Conflict(
      `[installation] node ${row.node} of contract ${row.contract_id} is in use by another installation (a data dir set up again?); ` +
        'revoke it and add this store under a new node number',
    );
  }
}

export interface DeadLetter {
  deadLetterId: number;
  contractId: string;
  node: number;
  direction: 'push' | 'pull';
  seq: number;
  entity: string;
  id: string;
  op: string;
  hlc: string;
  reason: string;
  status: 'open' | 'retried' | 'discarded';
  createdAt: number;
  resolvedAt: number | null;
}

interface DeadLetterRow {
  dead_letter_id: number;
  contract_id: string;
  node: number;
  direction: 'push' | 'pull';
  seq: number;
  entity: string;
  entity_id: string;
  op: string;
  hlc: string;
  row: string | null;
  reason: string;
  status: 'open' | 'retried' | 'discarded';
  created_at: number;
  resolved_at: number | null;
}

const presentDeadLetter = (r: DeadLetterRow): DeadLetter => ({
  deadLetterId: r.dead_letter_id,
  contractId: r.contract_id,
  node: r.node,
  direction: r.direction,
  seq: r.seq,
  entity: r.entity,
  id: r.entity_id,
  op: r.op,
  hlc: r.hlc,
  reason: r.reason,
  status: r.status,
  createdAt: r.created_at,
  resolvedAt: r.resolved_at,
});

/** Dead letters on either side (central: refused pushes; a store: pulled items it could not apply). */
export class DeadLetters {
  private readonly insert;

  constructor(private readonly ctx: SyncContext) {
    this.insert = ctx.deps.db.prepare(
      `INSERT INTO dead_letters (contract_id, node, direction, seq, entity, entity_id, op, hlc, row, reason, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING dead_letter_id`,
    );
  }

  add(contractId: string, node: number, direction: 'push' | 'pull', item: SyncItem, reason: string): number {
    const row = item.row === undefined || item.row === null ? null : JSON.stringify(item.row);
    const { dead_letter_id } = this.insert.get(
      contractId,
      node,
      direction,
      item.seq,
      String(item.entity),
      String(item.id),
      String(item.op),
      String(item.hlc),
      row,
      reason.slice(0, 1000),
      this.ctx.deps.clock.now().getTime(),
    ) as { dead_letter_id: number };
    return dead_letter_id;
  }

  list(contractId: string, status?: DeadLetter['status']): DeadLetter[] {
    const rows = (
      status
        ? this.ctx.deps.db.prepare('SELECT * FROM dead_letters WHERE contract_id = ? AND status = ? ORDER BY dead_letter_id').all(contractId, status)
        : this.ctx.deps.db.prepare('SELECT * FROM dead_letters WHERE contract_id = ? ORDER BY dead_letter_id').all(contractId)
    ) as DeadLetterRow[];
    return rows.map(presentDeadLetter);
  }

  openCount(contractId: string): number {
    return this.ctx.deps.db.prepare("SELECT count(*) FROM dead_letters WHERE contract_id = ? AND status = 'open'").pluck().get(contractId) as number;
  }

  find(contractId: string, id: number): DeadLetterRow | undefined {
    return this.ctx.deps.db.prepare('SELECT * FROM dead_letters WHERE contract_id = ? AND dead_letter_id = ?').get(contractId, id) as DeadLetterRow | undefined;
  }

  /**
   * Applies an open dead letter again (after the cause was fixed, e.g. a missing master added).
   * Returns the dead letter: status retried when it applied, still open with the new reason if not.
   */
  retry(contractId: string, id: number, apply: (row: DeadLetterRow, item: SyncItem) => void): DeadLetter | undefined {
    const db = this.ctx.deps.db;
    return this.ctx.deps.writer.write(() => {
      const row = this.find(contractId, id);
      if (!row) return undefined;
      if (row.status !== 'open') return presentDeadLetter(row);
      const item: SyncItem = {
        seq: row.seq,
        entity: row.entity,
        id: row.entity_id,
        op: row.op as SyncItem['op'],
        hlc: row.hlc,
        row: row.row === null ? null : (JSON.parse(row.row) as SyncRecord),
      };
      const now = this.ctx.deps.clock.now().getTime();
      try {
        db.transaction(() => apply(row, item))();
        db.prepare("UPDATE dead_letters SET status = 'retried', resolved_at = ? WHERE dead_letter_id = ?").run(now, id);
      } catch (error) {
        db.prepare('UPDATE dead_letters SET reason = ? WHERE dead_letter_id = ?').run(reasonOf(error), id);
      }
      return presentDeadLetter(this.find(contractId, id)!);
    });
  }

  discard(contractId: string, id: number): DeadLetter | undefined {
    return this.ctx.deps.writer.write(() => {
      const row = this.find(contractId, id);
      if (!row) return undefined;
      if (row.status === 'open') {
        this.ctx.deps.db.prepare("UPDATE dead_letters SET status = 'discarded', resolved_at = ? WHERE dead_letter_id = ?").run(this.ctx.deps.clock.now().getTime(), id);
      }
      return presentDeadLetter(this.find(contractId, id)!);
    });
  }
}

export const reasonOf = (error: unknown): string => (error instanceof ItemRejected ? error.message : `${(error as Error).name}: ${(error as Error).message}`);

/** An item as a push carries it (wire.ts): its record as an object (`row`) or compact (`cells`). */
export type PushedItem = Omit<PushItem, 'row'> & { row?: SyncRecord | null };

/** The pushed item with its record as an object; a compact record that does not fit its columns is refused. */
function withRecord(item: PushedItem, tables: CompactColumns): SyncItem {
  const { cells, ...rest } = item;
  if (cells === undefined) return { ...rest, row: item.row ?? null };
  const def = entityNamed(item.entity);
  if (!def) throw new ItemRejected(`unknown entity ${item.entity}`);
  try {
    return { ...rest, row: expandCompact(def, tables, cells) };
  } catch (error) {
    throw new ItemRejected((error as Error).message);
  }
}

/** An item a run refused, and why: its dead letter, recorded by the caller. */
interface Refused {
  item: PushedItem;
  full: SyncItem;
  reason: string;
}

/** A push's answer (wire.ts) but the sender's clock, which the route adds. */
export type PushResult = Omit<PushAnswer, 'hlc' | 'wallTime'>;

/** A pull's page (wire.ts) but the sender's clock, which the route adds. */
export type PullPage = Omit<PullAnswer, 'hlc' | 'wallTime'>;

/** Central's side of push and pull. */
export class CentralSync {
  readonly nodes;
  readonly deadLetters;
  private readonly applier;
  private readonly log;
  private readonly versions;
  private readonly changesAfter;
  private readonly runningElsewhere;

  constructor(private readonly ctx: SyncContext) {
    this.nodes = new NodeRepo(ctx);
    this.deadLetters = new DeadLetters(ctx);
    this.applier = new Applier(ctx);
    this.log = new ChangeLog(ctx);
    this.versions = new Versions(ctx);
    const after = dialectOf(ctx.deps.db).changeLogAfter('@cursor', '@running');
    this.changesAfter = ctx.deps.db.prepare(
      `SELECT seq, entity, entity_id, op, hlc, origin_node, row FROM change_log WHERE contract_id = @contract AND ${after.where} ORDER BY ${after.order} LIMIT @limit`,
    );
    this.runningElsewhere = after.running === null ? undefined : ctx.deps.db.prepare(after.running).pluck();
  }

  /**
   * Applies one batch in sequence order in one transaction. Items at or below the node's
   * high-water mark were applied before (a resent batch) and are only acknowledged; an item
   * refused becomes a dead letter and is acknowledged too, so it never blocks the rest. The
   * node's row is locked first: the same batch arriving at two central processes at once applies
   * in one of them while the other waits, then finds it at or below the high-water mark. A process
   * that dies mid-batch commits nothing (its transaction rolls back) and the store sends it again.
   */
  push(contractId: string, node: number, items: PushedItem[], tables: CompactColumns = {}, installation?: string): PushResult {
    const { db, writer, clock } = this.ctx.deps;
    return writer.write(() => {
      const current = this.nodes.lock(contractId, node)!;
      if (installation !== undefined) this.nodes.claim(current, installation);
      let hwm = current.high_water;
      const latest = latestHlc(items);
      // Followed, not minted: the balance entries and the answer (route) mint in this write and save it.
      if (latest) this.ctx.hlc.observe(latest);
      const result: PushResult = { acked: hwm, deadLetters: [], applied: 0, skipped: 0 };
      const fresh: PushedItem[] = [];
      for (const item of [...items].sort((a, b) => a.seq - b.seq)) {
        if (item.seq <= hwm) {
          result.skipped++;
          continue;
        }
        fresh.push(item);
        hwm = item.seq;
      }
      for (let i = 0; i < fresh.length; ) {
        // A store's sale is a transaction and its stock movements, one after the other: the
        // batch's sales records are applied entity by entity first, falling back to the runs.
        const mixed = this.mixedRunOf(fresh, i);
        if (mixed && this.pushMixed(contractId, node, mixed, tables, result)) {
          i += mixed.length;
          continue;
        }
        const run = this.runOf(fresh, i);
        if (run.length > 1 && this.pushMany(contractId, node, run, tables, result)) {
          i += run.length;
          continue;
        }
        for (const item of run) this.pushOne(contractId, node, item, tables, result);
        i += run.length;
      }
      // A failure here fails the push whole: these writes may go together.
      deferringWrites(db, () => {
        this.applier.flushBalances();
        db.prepare('UPDATE sync_nodes SET high_water = ?, last_push_at = ? WHERE contract_id = ? AND node = ?').run(hwm, clock.now().getTime(), contractId, node);
      });
      result.acked = hwm;
      return result;
    });
  }

  /** One pushed item in its own savepoint; refused (by a check or the write), a dead letter. */
  private pushOne(contractId: string, node: number, item: PushedItem, tables: CompactColumns, result: PushResult): void {
    let full: SyncItem = { ...item, row: item.row ?? null };
    try {
      full = withRecord(item, tables);
      this.ctx.deps.db.transaction(() => this.applier.applyPushed(contractId, node, full))();
      result.applied++;
    } catch (error) {
      const reason = reasonOf(error);
      result.deadLetters.push({ seq: item.seq, deadLetterId: this.deadLetters.add(contractId, node, 'push', full, reason), reason });
    }
  }

  /**
   * The items from `start` that may be applied together (Applier.manyEntity): consecutive
   * inserts and updates of one entity, each id once; else the item at `start` alone.
   */
  private runOf(items: readonly PushedItem[], start: number): PushedItem[] {
    const first = items[start]!;
    const def = this.applier.manyEntity(first);
    if (!def) return [first];
    const ids = new Set<string>();
    let end = start;
    while (end < items.length && items[end]!.entity === first.entity && this.applier.manyEntity(items[end]!) === def && !ids.has(String(items[end]!.id))) {
      ids.add(String(items[end]!.id));
      end++;
    }
    return items.slice(start, end);
  }

  /**
   * The items from `start` that applyPushedMany takes (Applier.manyEntity), each record once,
   * when they are of more than one entity: a store's sales one after the other (a transaction,
   * its movements, the next transaction…). Undefined when runOf has them as well.
   */
  private mixedRunOf(items: readonly PushedItem[], start: number): PushedItem[] | undefined {
    const seen = new Set<string>();
    const entities = new Set<string>();
    let end = start;
    while (end < items.length) {
      const item = items[end]!;
      const key = `${item.entity}\u0000${String(item.id)}`;
      if (seen.has(key) || !this.applier.manyEntity(item)) break;
      seen.add(key);
      entities.add(item.entity);
      end++;
    }
    return entities.size > 1 ? items.slice(start, end) : undefined;
  }

  /**
   * A mixed run (mixedRunOf) applied entity by entity in one savepoint, each entity's items
   * together (as pushMany), dead letters recorded in sequence order. Sales records of different
   * entities apply the same in either order; if one entity's write fails, nothing of the run is
   * kept and false sends the caller to the runs and items one by one, in sequence order.
   */
  private pushMixed(contractId: string, node: number, run: readonly PushedItem[], tables: CompactColumns, result: PushResult): boolean {
    const byEntity = new Map<string, PushedItem[]>();
    for (const item of run) {
      const list = byEntity.get(item.entity);
      if (list) list.push(item);
      else byEntity.set(item.entity, [item]);
    }
    const local: PushResult = { acked: 0, applied: 0, skipped: 0, deadLetters: [] };
    const refused: Refused[] = [];
    const apart = new Error('applied apart');
    try {
      this.ctx.deps.db.transaction(() =>
        // One run of deferred writes for all its entities: one's writes go with the next one's first read.
        deferringWrites(this.ctx.deps.db, () => {
          // No savepoint of its own per entity: a failed write rolls this one back whole anyway.
          for (const items of byEntity.values()) if (!this.applyMany(contractId, node, items, tables, local, refused, false)) throw apart;
        }),
      )();
    } catch (error) {
      // A write that failed when the last entity's writes were sent falls apart too; a database
      // out of reach fails the push (503), as it would one by one.
      if (error === apart || !isDatabaseUnavailable(error)) return false;
      throw error;
    }
    result.applied += local.applied;
    this.recordRefused(contractId, node, refused.sort((a, b) => a.item.seq - b.item.seq), result);
    return true;
  }

  /** Dead letters of the items a run refused, in the order given. */
  private recordRefused(contractId: string, node: number, refused: readonly Refused[], result: PushResult): void {
    for (const { item, full, reason } of refused) {
      result.deadLetters.push({ seq: item.seq, deadLetterId: this.deadLetters.add(contractId, node, 'push', full, reason), reason });
    }
  }

  /**
   * A run of items (runOf) applied together in one savepoint: the same outcome as pushOne for
   * each in turn (applied, or a dead letter with the same reason, in sequence order) in a few
   * statements per table instead of several per item. False, with nothing written, when the
   * write failed (a constraint, a record that does not fit): the caller then pushes them one by one.
   */
  private pushMany(contractId: string, node: number, run: readonly PushedItem[], tables: CompactColumns, result: PushResult): boolean {
    const refused: Refused[] = [];
    if (!this.applyMany(contractId, node, run, tables, result, refused)) return false;
    this.recordRefused(contractId, node, refused, result);
    return true;
  }

  /** pushMany's apply: counts what applied into `result` and lists what is refused, whose dead letters are the caller's to record; false, with nothing written, when the write failed. */
  private applyMany(contractId: string, node: number, run: readonly PushedItem[], tables: CompactColumns, result: PushResult, refusedItems: Refused[], savepoint = true): boolean {
    const def = this.applier.manyEntity(run[0]!)!;
    const full: SyncItem[] = [];
    const reasons: (string | undefined)[] = [];
    for (const item of run) {
      try {
        full.push(withRecord(item, tables));
        reasons.push(undefined);
      } catch (error) {
        full.push({ ...item, row: item.row ?? null });
        reasons.push(reasonOf(error));
      }
    }
    const checked = full.filter((_, k) => reasons[k] === undefined);
    let refused: (string | undefined)[];
    try {
      // Any failure of it sends the run apart (below), so its writes may go in one round trip with the read after them.
      const apply = () => deferringWrites(this.ctx.deps.db, () => this.applier.applyPushedMany(contractId, node, def, checked));
      // In a caller's savepoint (savepoint false) a failed write is rolled back by that caller, which is given false at once.
      refused = savepoint ? this.ctx.deps.db.transaction(apply)() : apply();
    } catch {
      return false;
    }
    let next = 0;
    run.forEach((item, k) => {
      const reason = reasons[k] ?? refused[next++];
      if (reason === undefined) result.applied++;
      else refusedItems.push({ item, full: full[k]!, reason });
    });
    return true;
  }

  /** Retries a pushed dead letter through the same path as a push. */
  retryDeadLetter(contractId: string, id: number): DeadLetter | undefined {
    return this.deadLetters.retry(contractId, id, (row, item) => {
      if (row.direction !== 'push') throw new ItemRejected('only pushed items are retried at central');
      this.applier.applyPushed(contractId, row.node, item);
      this.applier.flushBalances();
    });
  }

  /**
   * Master changes after the cursor (the node's own changes are left out: it has them), in the
   * order they committed (dialect changeLogAfter): with several central processes a change can
   * commit after one with a higher seq was pulled, and must not be passed over. The cursor stays
   * the seq of the last row given.
   */
  pull(contractId: string, node: number, cursor: number, limit: number): PullPage {
    const { db, clock } = this.ctx.deps;
    const running = this.runningElsewhere?.get() ?? null;
    const rows = this.changesAfter.all({ contract: contractId, cursor, limit: limit + 1, running }) as {
      seq: number;
      entity: string;
      entity_id: string;
      op: SyncItem['op'];
      hlc: string;
      origin_node: number;
      row: string | null;
    }[];
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const items = page
      .filter((r) => r.origin_node !== node)
      .map((r) => ({ seq: r.seq, entity: r.entity, id: r.entity_id, op: r.op, hlc: r.hlc, row: r.row === null ? null : (JSON.parse(r.row) as SyncRecord), origin: r.origin_node }));
    this.ctx.deps.writer.write(() => {
      db.prepare('UPDATE sync_nodes SET last_pull_at = ? WHERE contract_id = ? AND node = ?').run(clock.now().getTime(), contractId, node);
    });
    return { items, cursor: page.length ? page[page.length - 1]!.seq : cursor, more };
  }

  /**
   * Masters written without the sync hooks (before sync began, by an older build, or by a one-shot
   * command) have no version and are not in the change log: central adds each to the log, parents
   * first, when it starts and when a node is added, so a new store's first pull gets everything.
   */
  seed(contractId: string): number {
    const { db, writer, clock } = this.ctx.deps;
    return writer.write(() => {
      let added = 0;
      for (const def of ENTITIES) {
        if (def.kind !== 'master') continue;
        let logged: Set<string> | undefined;
        for (const id of this.ctx.records.ids(def, contractId)) {
          if (this.versions.get(contractId, def.name, id) !== undefined) continue;
          // A balance that merges by movements (stock) has no version: its balance entries in the
          // log already carry it to the stores, so adding a node must not log it again.
          logged ??= new Set(db.prepare('SELECT DISTINCT entity_id FROM change_log WHERE contract_id = ? AND entity = ?').pluck().all(contractId, def.name) as string[]);
          if (logged.has(id)) continue;
          const hlc = this.ctx.hlc.now();
          this.log.append(contractId, def.name, id, 'insert', hlc, 0, this.ctx.records.read(def, contractId, id));
          this.versions.set(contractId, def.name, id, hlc);
          added++;
        }
      }
      db.prepare('INSERT INTO sync_seeded (contract_id, seeded_at) VALUES (?, ?) ON CONFLICT (contract_id) DO UPDATE SET seeded_at = excluded.seeded_at').run(
        contractId,
        clock.now().getTime(),
      );
      return added;
    });
  }

  /** Seeds every contract (central's start). */
  seedAll(): number {
    const ids = this.ctx.deps.db.prepare('SELECT contract_id FROM contracts ORDER BY contract_id').pluck().all() as string[];
    return ids.reduce((n, id) => n + this.seed(id), 0);
  }
}
