import type { AppDeps } from '../server/deps.js';
import { Applier, latestHlc, type SyncItem } from './apply.js';
import { DeadLetters, reasonOf } from './central.js';
import { callCentral, clockSkew, type CentralAnswer } from './central-client.js';
import { syncContext, type SyncContext } from './context.js';
import { entityNamed, type CompactColumns, type CompactRecord, type SyncRecord } from './entities.js';
import { LinkRepo, type Link } from './link.js';
import { EventForwarder } from './event-forwarder.js';
import { pullResponse, pushResponse, type PullAnswer, type PushAnswer } from './wire.js';

export interface AgentOptions {
  /** Items per push batch. */
  batchItems: number;
  /** Bytes of item JSON per push batch (a single larger item still goes alone). */
  batchBytes: number;
  /** Items per pull page. */
  pullLimit: number;
  /** Whole-request timeout of each call to central. */
  timeoutMs: number;
  /**
   * While the outbox still has more than a batch, a round pulls only when this long has passed
   * since the last pull: draining a day of sales does not ask central for masters every batch.
   */
  pullWhilePushingMs: number;
}

export const DEFAULT_AGENT_OPTIONS: AgentOptions = { batchItems: 500, batchBytes: 2 * 1024 * 1024, pullLimit: 500, timeoutMs: 15_000, pullWhilePushingMs: 2000 };

/** Central did not answer usefully; the scheduler backs off. Nothing was acknowledged. */
export class SyncUnavailable extends Error {}

interface OutboxRow {
  seq: number;
  entity: string;
  entity_id: string;
  op: SyncItem['op'];
  hlc: string;
  row: string | null;
}

/**
 * The store's sync agent (DESIGN §5): pushes the outbox in batches and pulls masters by cursor,
 * one call at a time. Outbox rows are deleted only once central acknowledges them; a pulled page
 * is applied in one SQLite transaction with its cursor. Retrying and back-off belong to scheduler.ts.
 */
export class SyncAgent {
  readonly links;
  private readonly ctx: SyncContext;
  private readonly applier;
  private readonly deadLetters;
  private readonly events;
  private readonly options: AgentOptions;
  /** When each contract last pulled (this process's clock), for pullWhilePushingMs. */
  private readonly lastPullAt = new Map<string, number>();

  constructor(
    private readonly deps: AppDeps,
    options: Partial<AgentOptions> = {},
  ) {
    this.ctx = syncContext(deps);
    this.links = new LinkRepo(deps);
    this.applier = new Applier(this.ctx);
    this.deadLetters = new DeadLetters(this.ctx);
    this.events = new EventForwarder(this.ctx);
    this.options = { ...DEFAULT_AGENT_OPTIONS, ...options };
  }

  /**
   * An outbox row of a sales record carries no copy (write-hooks.ts): the record is read as it stands
   * now, in compact form (values in the order of the batch's column lists); one that is gone by
   * now travels as a delete. A master's row carries its copy as JSON text. `current` holds the
   * batch's sales records, read together beforehand (currentRecords).
   */
  private itemText(r: OutboxRow, tables: CompactColumns, current: Map<string, Map<string, CompactRecord>>): string {
    const head = `{"seq":${r.seq},"entity":${JSON.stringify(r.entity)},"id":${JSON.stringify(r.entity_id)},"hlc":"${r.hlc}"`;
    if (r.row !== null || r.op === 'delete') return `${head},"op":"${r.op}","row":${r.row ?? 'null'}}`;
    const def = entityNamed(r.entity);
    const compact = current.get(r.entity)?.get(r.entity_id);
    if (!def || !compact) return `${head},"op":"delete","row":null}`;
    Object.assign(tables, this.ctx.records.compactColumns(def));
    return `${head},"op":"${r.op}","cells":${JSON.stringify(compact)}}`;
  }

  /** The sales records the rows name, as they stand now, per entity and id: one read per table, not per record. */
  private currentRecords(contractId: string, rows: readonly OutboxRow[]): Map<string, Map<string, CompactRecord>> {
    const ids = new Map<string, string[]>();
    for (const r of rows) {
      if (r.row !== null || r.op === 'delete') continue;
      const list = ids.get(r.entity);
      if (list) list.push(r.entity_id);
      else ids.set(r.entity, [r.entity_id]);
    }
    const current = new Map<string, Map<string, CompactRecord>>();
    for (const [entity, list] of ids) {
      const def = entityNamed(entity);
      if (def) current.set(entity, this.ctx.records.readCompactMany(def, contractId, list));
    }
    return current;
  }

  /** Pushes one batch of the contract's outbox; `more` when rows remain. */
  async push(contractId: string): Promise<{ sent: number; acked: number; deadLetters: number; more: boolean }> {
    const link = this.requireLink(contractId);
    const { db } = this.deps;
    // Webhook events raised before the link or without a reported change join the outbox first.
    if (this.events.waiting()) this.deps.writer.write(() => this.events.forward());
    const rows = db
      .prepare('SELECT seq, entity, entity_id, op, hlc, row FROM outbox WHERE contract_id = ? ORDER BY seq LIMIT ?')
      .all(contractId, this.options.batchItems + 1) as OutboxRow[];
    if (rows.length === 0) return { sent: 0, acked: 0, deadLetters: 0, more: false };
    const items: string[] = [];
    const tables: CompactColumns = {};
    const batch = rows.slice(0, this.options.batchItems);
    const current = this.currentRecords(contractId, batch);
    let bytes = 0;
    for (const r of batch) {
      const text = this.itemText(r, tables, current);
      const size = Buffer.byteLength(text);
      if (items.length > 0 && bytes + size > this.options.batchBytes) break;
      items.push(text);
      bytes += size;
    }
    const installation = JSON.stringify(this.links.installationId());
    const body = `{"node":${link.node},"installation":${installation},"tables":${JSON.stringify(tables)},"items":[${items.join(',')}]}`;
    const sentLast = rows[items.length - 1]!.seq;
    const { answer, skew } = await this.call<PushAnswer>(link, 'POST', 'push', pushResponse.parse, body);
    this.deps.writer.write(() => {
      // Central's high-water mark covers everything it has taken, dead letters included.
      db.prepare('DELETE FROM outbox WHERE contract_id = ? AND seq <= ?').run(contractId, Math.min(answer.acked, sentLast));
      this.links.update(contractId, { last_push_at: this.now(), online: 1, last_error: null, clock_skew_ms: skew }, answer.deadLetters.length);
      this.ctx.hlc.receive(answer.hlc);
    });
    const left = db.prepare('SELECT 1 FROM outbox WHERE contract_id = ? LIMIT 1').get(contractId) !== undefined;
    return { sent: items.length, acked: answer.acked, deadLetters: answer.deadLetters.length, more: left };
  }

  /** Pulls and applies one page of master changes; `more` when central has more. */
  async pull(contractId: string): Promise<{ received: number; applied: number; more: boolean }> {
    const link = this.requireLink(contractId);
    const query = `?cursor=${link.pullCursor}&limit=${this.options.pullLimit}`;
    this.lastPullAt.set(contractId, this.now());
    const { answer, skew } = await this.call<PullAnswer>(link, 'GET', `pull${query}`, (json) => pullResponse.parse(json) as PullAnswer);
    const { db, writer } = this.deps;
    let applied = 0;
    writer.write(() => {
      // A link replaced while the request was out (unlink, relink) is not advanced by a stale page.
      const current = this.links.get(contractId);
      if (!current || current.pullCursor !== link.pullCursor || current.linkedAt !== link.linkedAt) return;
      const latest = latestHlc(answer.items);
      if (latest) this.ctx.hlc.receive(latest);
      for (const item of answer.items) {
        try {
          if (db.transaction(() => this.applier.applyPulled(contractId, item))() === 'applied') applied++;
        } catch (error) {
          this.deadLetters.add(contractId, link.node, 'pull', item, reasonOf(error));
        }
      }
      const now = this.now();
      // Caught up: the first time ends the first pull (the setup screen then sends staff to the login).
      this.links.update(contractId, { pull_cursor: answer.cursor, last_pull_at: now, online: 1, last_error: null, clock_skew_ms: skew, ...(answer.more ? {} : { caught_up_at: now }) });
      this.ctx.hlc.receive(answer.hlc);
    });
    return { received: answer.items.length, applied, more: answer.more };
  }

  /**
   * One push and one pull (the pull skipped while the push has more and the last pull is recent);
   * `more` when either has work left. Throws SyncUnavailable when central cannot be reached.
   */
  async syncOnce(contractId: string): Promise<{ pushed: number; pulled: number; more: boolean }> {
    const push = await this.push(contractId);
    const last = this.lastPullAt.get(contractId);
    if (push.more && last !== undefined && this.now() - last < this.options.pullWhilePushingMs) {
      return { pushed: push.sent, pulled: 0, more: true };
    }
    const pull = await this.pull(contractId);
    return { pushed: push.sent, pulled: pull.applied, more: push.more || pull.more };
  }

  /** Runs push and pull until nothing is left or `maxRounds` (tests and `sync now`). */
  async drain(contractId: string, maxRounds = 1000): Promise<{ pushed: number; pulled: number; rounds: number }> {
    let pushed = 0;
    let pulled = 0;
    for (let round = 1; round <= maxRounds; round++) {
      const r = await this.syncOnce(contractId);
      pushed += r.pushed;
      pulled += r.pulled;
      if (!r.more) return { pushed, pulled, rounds: round };
    }
    return { pushed, pulled, rounds: maxRounds };
  }

  private requireLink(contractId: string): Link {
    const link = this.links.get(contractId);
    if (!link) throw new Error(`contract ${contractId} is not linked`);
    return link;
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }

  /** One call to central; its answer is checked against the wire format (wire.ts) before anything is applied. */
  private async call<T extends { wallTime: number }>(link: Link, method: 'GET' | 'POST', path: string, parse: (json: unknown) => T, body?: string): Promise<{ answer: T; skew: number }> {
    const started = this.now();
    let response: CentralAnswer;
    try {
      response = await callCentral(link, method, path, this.options.timeoutMs, body);
    } catch (error) {
      throw this.fail(link, `${method} ${path.split('?')[0]}: ${(error as Error).message}`, error);
    }
    if (response.statusCode < 200 || response.statusCode > 299) {
      throw this.fail(link, `${method} ${path.split('?')[0]}: central answered ${response.statusCode} ${response.body.slice(0, 300)}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch (error) {
      throw this.fail(link, `${method} ${path.split('?')[0]}: the answer is not JSON`, error);
    }
    let answer: T;
    try {
      answer = parse(json);
    } catch (error) {
      throw this.fail(link, `${method} ${path.split('?')[0]}: the answer is not in central's wire format`, error);
    }
    const skew = clockSkew(answer.wallTime, started, this.now());
    return { answer, skew };
  }

  private fail(link: Link, message: string, cause?: unknown): SyncUnavailable {
    try {
      this.deps.writer.write(() => this.links.update(link.contractId, { last_attempt_at: this.now(), online: 0, last_error: message.slice(0, 500) }));
    } catch {
      // the status could not be written (database busy): the failure itself still goes up
    }
    return new SyncUnavailable(message, { cause });
  }
}

export type { SyncRecord };
