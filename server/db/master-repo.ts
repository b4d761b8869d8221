import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import type { Page, UpdRange } from '../http/paging.js';
import { NotFound } from '../http/problem.js';
import { entityNamed, idOfRow, type EntityDef } from './entities.js';
import type { Sqlite } from './open.js';
import { selectPage, updateRow, type RowRef } from './sql.js';
import type { Change, Writer } from './write.js';

/** Distinct INSERT texts kept prepared per repo. */
const INSERT_CACHE_MAX = 32;

/**
 * What a master resource adds to its registry entry (server/db/entities.ts): the PATCH body's
 * field → column map and the list's sort field → column map. The table, key and the entity
 * name reported to `writer.changed` come from the registry.
 */
export interface MasterSpec<S extends string> {
  /** The registry name, as reported to `writer.changed` (e.g. 'cash_drawer'). */
  entity: string;
  /** PATCH body key → column (client keys never reach the SQL text). */
  columns: Readonly<Record<string, string>>;
  /** List sort key → column. */
  sort: Readonly<Record<S, string>>;
  /** The 404's words: `<noun> <id> does not exist`; the entity name with spaces by default. */
  noun?: string;
  /** The path parameter the 404 names; the key column by default. */
  param?: string;
  /** A view over the table, with the same key, that find / get / list read (writes go to the table). */
  readFrom?: string;
}

/**
 * The generic master repo (DESIGN §5): find / get (404 naming the path parameter) / list (a
 * page with equality filters and the update-time range) / update (mapped PATCH keys, `upd_at`),
 * insert and delete, each write reporting its change to `writer.changed` under the registry's
 * name. A master repo extends it with its own rules (references, uniqueness, conversions) and
 * nothing more, so a new master is a registry entry plus its column maps. Masters with a single
 * key only; call the writes inside `writer.write`.
 */
export abstract class MasterRepo<Row extends object, S extends string = string> {
  protected readonly def: EntityDef;
  protected readonly ref: RowRef;
  private readonly reads: RowRef;
  private readonly noun: string;
  private readonly param: string;
  private readonly byKey: Statement<unknown[]>;
  private readonly byKeyDelete: Statement<unknown[]>;
  private readonly inserts = new Map<string, Statement<unknown[]>>();

  constructor(
    protected readonly db: Sqlite,
    protected readonly writer: Writer,
    protected readonly clock: Clock,
    private readonly spec: MasterSpec<S>,
  ) {
    const def = entityNamed(spec.entity);
    if (!def || def.kind !== 'master' || def.keys.length !== 1) throw new Error(`${spec.entity} is not a single-key master of the entity registry`);
    this.def = def;
    this.ref = { table: def.table, key: def.keys[0]! };
    this.noun = spec.noun ?? def.name.replaceAll('_', ' ');
    this.param = spec.param ?? this.ref.key;
    this.reads = { table: spec.readFrom ?? def.table, key: this.ref.key };
    this.byKey = db.prepare<unknown[]>(`SELECT * FROM ${this.reads.table} WHERE contract_id = ? AND ${this.ref.key} = ?`);
    this.byKeyDelete = db.prepare<unknown[]>(`DELETE FROM ${this.ref.table} WHERE contract_id = ? AND ${this.ref.key} = ?`);
  }

  find(contractId: string, id: string | number): Row | undefined {
    return this.byKey.get(contractId, id) as Row | undefined;
  }

  /** The path's target, or 404 `[<param>] <noun> <id> does not exist`. */
  get(contractId: string, id: string | number): Row {
    const row = this.find(contractId, id);
    if (!row) throw NotFound.field(this.param, `${this.noun} ${id} does not exist`);
    return row;
  }

  /** The record id of a row, as reported to `writer.changed`. */
  protected idOf(row: Row): string {
    return idOfRow(this.def, row as Record<string, unknown>);
  }

  protected now(): number {
    return this.clock.now().getTime();
  }

  protected changed(contractId: string, id: string, op: Change['op']): void {
    this.writer.changed({ contractId, entity: this.def.name, id, op });
  }

  /** One page: equality filters (column → value, undefined: not filtered), upd range, sort then key. */
  protected select(contractId: string, filters: Record<string, string | number | undefined>, page: Page<S> & UpdRange): Row[] {
    return selectPage<Row, S>(this.db, this.reads, contractId, filters, page, this.spec.sort);
  }

  /**
   * Inserts a row (column → value, its key included) with `ins_at` = `upd_at` = now, reports
   * the insert and answers the record id. The column names are the repo's own (fixed text or a
   * column map's values), never client keys; columns left out keep their defaults.
   */
  protected insertRow(contractId: string, values: Record<string, unknown>): string {
    const columns = ['contract_id', ...Object.keys(values), 'ins_at', 'upd_at'];
    const sql = `INSERT INTO ${this.ref.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    let insert = this.inserts.get(sql);
    if (!insert) {
      // A few column sets per repo; one whose optional columns vary (stores) is bounded anyway.
      if (this.inserts.size >= INSERT_CACHE_MAX) this.inserts.delete(this.inserts.keys().next().value!);
      this.inserts.set(sql, (insert = this.db.prepare<unknown[]>(sql)));
    }
    const now = this.now();
    insert.run(contractId, ...Object.values(values), now, now);
    const id = idOfRow(this.def, values);
    this.changed(contractId, id, 'insert');
    return id;
  }

  /**
   * PATCH of a row read in this transaction: the keys of `values` that the column map names,
   * and `upd_at`; reports the update when anything was written (false: nothing mapped).
   */
  protected updateFields(contractId: string, current: Row, values: Record<string, unknown>, now = this.now()): boolean {
    const key = (current as Record<string, unknown>)[this.ref.key] as string | number;
    if (!updateRow(this.db, this.ref, contractId, key, values, this.spec.columns, now)) return false;
    this.changed(contractId, this.idOf(current), 'update');
    return true;
  }

  /** Deletes a row read in this transaction and reports the delete. */
  protected deleteRow(contractId: string, current: Row): void {
    this.byKeyDelete.run(contractId, (current as Record<string, unknown>)[this.ref.key]);
    this.changed(contractId, this.idOf(current), 'delete');
  }
}
