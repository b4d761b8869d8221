import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import type { Page, UpdRange } from '../platform/http/paging.js';
import { NotFoundError } from '../domain/errors.js';
import { entityNamed, idOfRow, keyValues, type EntityDef } from './entities.js';
import type { Sqlite } from './open.js';
import { selectFilteredPage, selectPage, setClause, type Condition, type RowRef } from './sql.js';
import type { Change, Writer } from './write.js';

/** Distinct INSERT / UPDATE texts kept prepared per repo. */
const STATEMENT_CACHE_MAX = 32;

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
  /** The path parameter the 404 names; the key column by default (a composite key's columns joined by '/'). */
  param?: string;
  /** A view over the table, with the same key, that find / get / list read (writes go to the table). */
  readFrom?: string;
}

/**
 * The generic master repo (DESIGN §5): find / get (404 naming the path parameter) / list (a
 * page with equality filters and the update-time range) / update (mapped PATCH keys, `upd_at`),
 * insert and delete, each write reporting its change to `writer.changed` under the registry's
 * name. A master repo extends it with its own rules (references, uniqueness, conversions) and
 * nothing more, so a new master is a registry entry plus its column maps. A composite key
 * (daily_budget: store_id, budget_date) is addressed by the registry's record id, its values
 * joined by '/' (keyValues / idOfRow); call the writes inside `writer.write`.
 */
export abstract class MasterRepo<Row extends object, S extends string = string> {
  protected readonly def: EntityDef;
  /**
   * The table and its key. A composite key's columns are joined by ', ', which still serves as
   * the ORDER BY tiebreak of sql.ts's page selects; `updateRow` takes a single key (use updateFields).
   */
  protected readonly ref: RowRef;
  private readonly reads: RowRef;
  private readonly noun: string;
  private readonly param: string;
  /** `contract_id = ? AND <key> = ? ...`: one row, bound to the contract id and the key's values. */
  private readonly whereKey: string;
  private readonly byKey: Statement<unknown[]>;
  private readonly byKeyDelete: Statement<unknown[]>;
  private readonly statements = new Map<string, Statement<unknown[]>>();

  constructor(
    protected readonly db: Sqlite,
    protected readonly writer: Writer,
    protected readonly clock: Clock,
    private readonly spec: MasterSpec<S>,
  ) {
    const def = entityNamed(spec.entity);
    if (!def || def.kind !== 'master') throw new Error(`${spec.entity} is not a master of the entity registry`);
    this.def = def;
    this.ref = { table: def.table, key: def.keys.join(', ') };
    this.noun = spec.noun ?? def.name.replaceAll('_', ' ');
    this.param = spec.param ?? def.keys.join('/');
    this.reads = { table: spec.readFrom ?? def.table, key: this.ref.key };
    this.whereKey = ['contract_id', ...def.keys].map((c) => `${c} = ?`).join(' AND ');
    this.byKey = db.prepare<unknown[]>(`SELECT * FROM ${this.reads.table} WHERE ${this.whereKey}`);
    this.byKeyDelete = db.prepare<unknown[]>(`DELETE FROM ${this.ref.table} WHERE ${this.whereKey}`);
  }

  /** The row of a record id (a composite key's values joined by '/'; a malformed one finds nothing). */
  find(contractId: string, id: string | number): Row | undefined {
    const key = this.keyOfId(id);
    return key && (this.byKey.get(contractId, ...key) as Row | undefined);
  }

  /** The path's target, or 404 `[<param>] <noun> <id> does not exist`. */
  get(contractId: string, id: string | number): Row {
    const row = this.find(contractId, id);
    if (!row) throw NotFoundError.field(this.param, `${this.noun} ${id} does not exist`);
    return row;
  }

  /** The record id of a row, as reported to `writer.changed`. */
  protected idOf(row: Row): string {
    return idOfRow(this.def, row as Record<string, unknown>);
  }

  private keyOfId(id: string | number): unknown[] | undefined {
    if (this.def.keys.length === 1) return [id];
    try {
      return keyValues(this.def, String(id));
    } catch {
      return undefined;
    }
  }

  private keyOfRow(row: Row): unknown[] {
    return this.def.keys.map((k) => (row as Record<string, unknown>)[k]);
  }

  /** A prepared INSERT / UPDATE text; a few per repo, bounded when their column sets vary (stores). */
  private statement(sql: string): Statement<unknown[]> {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_MAX) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, (statement = this.db.prepare<unknown[]>(sql)));
    }
    return statement;
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

  /** One page under conditions that may be ranges (`budget_date >= ?`), sort then key. */
  protected selectWhere(contractId: string, conditions: Condition[], page: Page<S>): Row[] {
    return selectFilteredPage<Row, S>(this.db, this.reads, contractId, conditions, page, this.spec.sort);
  }

  /**
   * Inserts a row (column → value, its key included) with `ins_at` = `upd_at` = `now`, reports
   * the insert and answers the record id. The column names are the repo's own (fixed text or a
   * column map's values), never client keys; columns left out keep their defaults.
   */
  protected insertRow(contractId: string, values: Record<string, unknown>, now = this.now()): string {
    const columns = ['contract_id', ...Object.keys(values), 'ins_at', 'upd_at'];
    const sql = `INSERT INTO ${this.ref.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    this.statement(sql).run(contractId, ...Object.values(values), now, now);
    const id = idOfRow(this.def, values);
    this.changed(contractId, id, 'insert');
    return id;
  }

  /**
   * PATCH of a row read in this transaction: the keys of `values` that the column map names,
   * and `upd_at`; reports the update when anything was written (false: nothing mapped).
   */
  protected updateFields(contractId: string, current: Row, values: Record<string, unknown>, now = this.now()): boolean {
    const set = setClause(values, this.spec.columns);
    if (!set) return false;
    this.statement(`UPDATE ${this.ref.table} SET ${set}, upd_at = @now WHERE ${this.whereKey}`).run(contractId, ...this.keyOfRow(current), { ...values, now });
    this.changed(contractId, this.idOf(current), 'update');
    return true;
  }

  /** Deletes a row read in this transaction and reports the delete. */
  protected deleteRow(contractId: string, current: Row): void {
    this.byKeyDelete.run(contractId, ...this.keyOfRow(current));
    this.changed(contractId, this.idOf(current), 'delete');
  }
}
