import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../server/db/open.js';
import { dialectOf } from '../server/db/engine.js';
import type { ListElement } from '../server/db/dialect/query.js';
import { keyValues, idOfRow, type EntityDef } from '../server/db/entities.js';

/**
 * The entity registry itself lives in server/db/entities.ts, where the generic master repo
 * code (server/db/master-repo.ts) reads it too; sync re-exports it from here.
 */
export * from '../server/db/entities.js';

/** The synced record, as it travels in the outbox, push and pull. */
export interface SyncRecord {
  row: Record<string, unknown>;
  children?: Record<string, Record<string, unknown>[]>;
}

/**
 * A record as a push carries it from the store's outbox (agent.ts): its values in the order of
 * the batch's column list for the table, not as objects. Sales records are read at push time,
 * and a 5-line sale is a fifth of the bytes this way, with far less work on both sides.
 */
export interface CompactRecord {
  row: unknown[];
  children?: Record<string, unknown[][]>;
}

/** The columns a compact record lists, per table: `{ transactions: ['transaction_head_id', ...] }`. */
export type CompactColumns = Record<string, readonly string[]>;

/** Turns a compact record back into a SyncRecord; a table without its column list, or a row of another width, is refused. */
export function expandCompact(def: EntityDef, columns: CompactColumns, compact: CompactRecord): SyncRecord {
  const toObject = (table: string, values: unknown[]): Record<string, unknown> => {
    const names = columns[table];
    if (!names) throw new RangeError(`the batch lists no columns for ${table}`);
    if (!Array.isArray(values) || values.length !== names.length) throw new RangeError(`a ${table} row has ${Array.isArray(values) ? values.length : 'no'} values for ${names.length} columns`);
    const row: Record<string, unknown> = {};
    names.forEach((name, i) => (row[name] = values[i]));
    return row;
  };
  const record: SyncRecord = { row: toObject(def.table, compact.row) };
  if (compact.children) {
    record.children = {};
    for (const child of def.children ?? []) {
      const rows = compact.children[child.table];
      if (rows !== undefined) record.children[child.table] = rows.map((r) => toObject(child.table, r));
    }
  }
  return record;
}

interface CompactReader {
  columns: CompactColumns;
  row: Statement<unknown[]>;
  children: { table: string; rows: Statement<unknown[]> }[];
  /** Single-key entities: the same reads for a JSON array of ids at once (readCompactMany). */
  many?: {
    rows: Statement<unknown[]>;
    keyAt: number;
    children: { table: string; rows: Statement<unknown[]>; parentAt: number }[];
  };
}

/**
 * Reads records and writes them back by the registry, with prepared statements cached per
 * database. Only columns the local table has are written (a newer peer's extra columns are dropped).
 */
export class RecordStore {
  private readonly statements = new Map<string, Statement<unknown[]>>();
  private readonly columns = new Map<string, Set<string>>();
  /** Per table, each column's declared type (as SQLite declares it, on both engines). */
  private readonly types = new Map<string, Map<string, string>>();
  private readonly compactReaders = new Map<string, CompactReader>();
  /** Tables found with planner statistics (withStatistics). */
  private readonly withStatisticsKnown = new Set<string>();

  constructor(private readonly db: Sqlite) {}

  private stmt(sql: string): Statement<unknown[]> {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare<unknown[]>(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  columnsOf(table: string): Set<string> {
    let cols = this.columns.get(table);
    if (!cols) {
      const found = this.db.prepare(dialectOf(this.db).tableColumns(table)).all() as { name: string; type: string }[];
      cols = new Set(found.map((c) => c.name));
      if (cols.size === 0) throw new Error(`no table ${table}`);
      this.columns.set(table, cols);
      this.types.set(table, new Map(found.map((c) => [c.name, c.type])));
    }
    return cols;
  }

  /** How a JSON list of ids compares with the column: as an integer when its type names INT (SQLite's affinity rule), else as text. */
  private elementOf(table: string, column: string): ListElement {
    this.columnsOf(table);
    return /INT/i.test(this.types.get(table)?.get(column) ?? '') ? 'integer' : 'text';
  }

  private where(def: EntityDef) {
    return ['contract_id = ?', ...def.keys.map((k) => `${k} = ?`)].join(' AND ');
  }

  /** The record as it stands now, or null when it does not exist (deleted). */
  read(def: EntityDef, contractId: string, id: string): SyncRecord | null {
    const keys = keyValues(def, id);
    const row = this.stmt(`SELECT * FROM ${def.table} WHERE ${this.where(def)}`).get(contractId, ...keys) as Record<string, unknown> | undefined;
    if (!row) return null;
    for (const c of def.localColumns ?? []) delete row[c];
    const record: SyncRecord = { row };
    if (def.children?.length) {
      record.children = {};
      for (const child of def.children) {
        record.children[child.table] = this.stmt(`SELECT * FROM ${child.table} WHERE contract_id = ? AND ${child.parentKey} = ?`).all(
          contractId,
          keys[0],
        ) as Record<string, unknown>[];
      }
    }
    return record;
  }

  /**
   * The columns a compact read lists, per table of the entity: every stored column but the
   * contract (the push names it) and the entity's local-only columns.
   */
  compactColumns(def: EntityDef): CompactColumns {
    return this.compactReader(def).columns;
  }

  /** The record as it stands now in compact form (values in compactColumns order), or null when it does not exist. */
  readCompact(def: EntityDef, contractId: string, id: string): CompactRecord | null {
    const reader = this.compactReader(def);
    const keys = keyValues(def, id);
    const row = reader.row.get(contractId, ...keys) as unknown[] | undefined;
    if (!row) return null;
    const record: CompactRecord = { row };
    if (reader.children.length) {
      record.children = {};
      for (const child of reader.children) record.children[child.table] = child.rows.all(contractId, keys[0]) as unknown[][];
    }
    return record;
  }

  /**
   * Several records of one entity in compact form, by id (those that do not exist are absent):
   * one query per table instead of one per record, for a push batch of sales records.
   * Entities with a composite key are read one by one.
   */
  readCompactMany(def: EntityDef, contractId: string, ids: readonly string[]): Map<string, CompactRecord> {
    const found = new Map<string, CompactRecord>();
    const reader = this.compactReader(def);
    if (!reader.many) {
      for (const id of ids) {
        const record = this.readCompact(def, contractId, id);
        if (record) found.set(id, record);
      }
      return found;
    }
    const list = JSON.stringify(ids);
    for (const row of reader.many.rows.all(contractId, list) as unknown[][]) {
      found.set(String(row[reader.many.keyAt]), reader.children.length ? { row, children: {} } : { row });
    }
    for (const child of reader.many.children) {
      for (const record of found.values()) record.children![child.table] = [];
      for (const row of child.rows.all(contractId, list) as unknown[][]) found.get(String(row[child.parentAt]))?.children![child.table]!.push(row);
    }
    return found;
  }

  private compactReader(def: EntityDef): CompactReader {
    let reader = this.compactReaders.get(def.name);
    if (!reader) {
      const listed = (table: string, local: readonly string[] = []) => [...this.columnsOf(table)].filter((c) => c !== 'contract_id' && !local.includes(c));
      const columns: Record<string, string[]> = { [def.table]: listed(def.table, def.localColumns) };
      for (const child of def.children ?? []) columns[child.table] = listed(child.table);
      reader = {
        columns,
        row: this.db.prepare<unknown[]>(`SELECT ${columns[def.table]!.join(', ')} FROM ${def.table} WHERE ${this.where(def)}`).raw(true),
        children: (def.children ?? []).map((child) => ({
          table: child.table,
          rows: this.db.prepare<unknown[]>(`SELECT ${columns[child.table]!.join(', ')} FROM ${child.table} WHERE contract_id = ? AND ${child.parentKey} = ?`).raw(true),
        })),
      };
      if (def.keys.length === 1) {
        // The ids come as one JSON text and compare as the key's type, as the single reads' bound
        // strings do (five keys are text: a staff rank, a tax rate's start date, ...).
        const inList = (table: string, column: string) => `${column} ${dialectOf(this.db).inJsonKeys(this.elementOf(table, column))}`;
        reader.many = {
          rows: this.db.prepare<unknown[]>(`SELECT ${columns[def.table]!.join(', ')} FROM ${def.table} WHERE contract_id = ? AND ${inList(def.table, def.keys[0]!)}`).raw(true),
          keyAt: columns[def.table]!.indexOf(def.keys[0]!),
          children: (def.children ?? []).map((child) => ({
            table: child.table,
            rows: this.db.prepare<unknown[]>(`SELECT ${columns[child.table]!.join(', ')} FROM ${child.table} WHERE contract_id = ? AND ${inList(child.table, child.parentKey)}`).raw(true),
            parentAt: columns[child.table]!.indexOf(child.parentKey),
          })),
        };
      }
      this.compactReaders.set(def.name, reader);
    }
    return reader;
  }

  /** Every id of an entity in a contract, in seeding order. */
  ids(def: EntityDef, contractId: string): string[] {
    const order = def.seedOrder ?? def.keys.join(', ');
    const rows = this.stmt(`SELECT ${def.keys.join(', ')} FROM ${def.table} WHERE contract_id = ? ORDER BY ${order}`).all(contractId) as Record<string, unknown>[];
    return rows.map((r) => idOfRow(def, r));
  }

  /** Inserts or replaces the record (its row by key, its children as a whole). Call inside a transaction. */
  write(def: EntityDef, contractId: string, id: string, record: SyncRecord): void {
    const keys = keyValues(def, id);
    const row: Record<string, unknown> = { ...record.row, contract_id: contractId };
    for (const c of def.localColumns ?? []) delete row[c];
    def.keys.forEach((k, i) => (row[k] = row[k] ?? keys[i]));
    if (idOfRow(def, row) !== id) throw new RangeError(`the row's key ${idOfRow(def, row)} is not the record id ${id}`);
    this.upsert(def.table, ['contract_id', ...def.keys], row);
    for (const child of def.children ?? []) {
      const rows = record.children?.[child.table];
      if (rows === undefined) continue; // a record without that child list leaves it as it is
      this.stmt(`DELETE FROM ${child.table} WHERE contract_id = ? AND ${child.parentKey} = ?`).run(contractId, keys[0]);
      this.insertAll(
        child.table,
        rows.map((r) => ({ ...r, contract_id: contractId, [child.parentKey]: row[def.keys[0]!] })),
      );
    }
  }

  /**
   * write() for several records of one single-key entity, each id once: the same rows, in a few
   * statements per table instead of several per record (a push batch of 500 sales: a handful of
   * multi-row upserts, one DELETE per child table, a handful of multi-row inserts). On PostgreSQL
   * each statement is a round trip, so this is most of what a drain costs there. A record that
   * cannot be written fails the whole call: the caller rolls back and writes them one by one.
   * Call inside a transaction.
   */
  writeMany(def: EntityDef, contractId: string, records: readonly { id: string; record: SyncRecord }[]): void {
    if (def.keys.length !== 1) throw new RangeError(`${def.name} has a composite key: its records are written one by one`);
    const key = def.keys[0]!;
    const rows = records.map(({ id, record }) => {
      keyValues(def, id);
      const row: Record<string, unknown> = { ...record.row, contract_id: contractId };
      for (const c of def.localColumns ?? []) delete row[c];
      row[key] = row[key] ?? id;
      if (idOfRow(def, row) !== id) throw new RangeError(`the row's key ${idOfRow(def, row)} is not the record id ${id}`);
      return row;
    });
    if (new Set(records.map((r) => r.id)).size !== records.length) throw new RangeError('writeMany takes each record once');
    // Children are replaced only under parents that were here before the write: a new parent has
    // none (their foreign key), and a push of new sales skips one DELETE a child table.
    const inList = (table: string, column: string) => `${column} ${dialectOf(this.db).inJsonKeys(this.elementOf(table, column))}`;
    const anyHere =
      Boolean(def.children?.length) &&
      this.stmt(`SELECT 1 FROM ${def.table} WHERE contract_id = ? AND ${inList(def.table, key)} LIMIT 1`).get(contractId, JSON.stringify(records.map((r) => r.id))) !== undefined;
    // Thousands of foreign-key checks alike (a sale's store, each line's sale): one plan each.
    // Set back at the end; a throw leaves it to the caller's rollback.
    const plans = dialectOf(this.db).reusedCheckPlans();
    if (plans) this.db.exec(plans.reuse);
    this.insertMany(def.table, rows, ['contract_id', key]);
    // Each child row's foreign key looks its parent up: the one plan kept for it takes the
    // parent's key only if planned on the parent's statistics. Without them (a new central's
    // first small pushes, until autovacuum or a push of STATISTICS_ROWS gathers them) it took
    // another index's contract prefix and read every sale of the contract for each line checked,
    // for as long as the connection lived: the children's checks are then planned each time.
    const reusing = Boolean(plans) && (!def.children?.length || this.withStatistics(def.table, rows.length));
    if (plans && !reusing) this.db.exec(plans.end);
    for (const child of def.children ?? []) {
      // A record without that child list leaves it as it is.
      const listed = records.flatMap((r, k) => (r.record.children?.[child.table] === undefined ? [] : [k]));
      if (!listed.length) continue;
      if (anyHere) this.stmt(`DELETE FROM ${child.table} WHERE contract_id = ? AND ${inList(child.table, child.parentKey)}`).run(contractId, JSON.stringify(listed.map((k) => records[k]!.id)));
      this.insertMany(
        child.table,
        listed.flatMap((k) => records[k]!.record.children![child.table]!.map((r) => ({ ...r, contract_id: contractId, [child.parentKey]: rows[k]![key] }))),
      );
    }
    if (plans && reusing) this.db.exec(plans.end);
  }

  /**
   * Inserts the rows in order as multi-row INSERTs (rows listing the same columns together), an
   * upsert on `conflict` when given (as upsert() does one row; the rows' keys must differ, which
   * PostgreSQL requires of one statement), in the dialect's form (insertRows): on SQLite a `?` a
   * value, each statement a power of two rows within BULK_VALUES values, so a table caches a few
   * statement texts, not one per row count; on PostgreSQL one array a column, up to BULK_ROWS rows
   * a statement.
   */
  private insertMany(table: string, rows: readonly Record<string, unknown>[], conflict?: string[]): void {
    const dialect = dialectOf(this.db);
    for (let i = 0; i < rows.length; ) {
      const [names, first] = this.known(table, rows[i]!);
      const types = names.map((c) => this.types.get(table)!.get(c)!);
      const updates = names.filter((c) => !conflict?.includes(c));
      const onConflict = !conflict
        ? ''
        : updates.length
          ? ` ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${updates.map((c) => `${c} = excluded.${c}`).join(', ')}`
          : ` ON CONFLICT (${conflict.join(', ')}) DO NOTHING`;
      const byColumn = dialect.insertRows(table, names, types, 1, onConflict).layout === 'columns';
      const most = byColumn ? BULK_ROWS : Math.max(1, Math.floor(BULK_VALUES / Math.max(1, names.length)));
      const values = [first];
      while (values.length < most && i + values.length < rows.length) {
        const [next, more] = this.known(table, rows[i + values.length]!);
        if (next.length !== names.length || next.some((c, k) => c !== names[k])) break;
        values.push(more);
      }
      if (!byColumn) values.length = 2 ** Math.floor(Math.log2(values.length));
      const { sql } = dialect.insertRows(table, names, types, values.length, onConflict);
      // One array argument: its elements bind the placeholders in order (a column's array is one value).
      this.stmt(sql).run(byColumn ? names.map((_, k) => values.map((row) => row[k])) : values.flat());
      i += values.length;
    }
  }

  /**
   * Whether the table has planner statistics (the dialect's tableStatistics), gathering them
   * when it has none and `rows` (the rows just written) or the table hold STATISTICS_ROWS, in a
   * savepoint: a failure (another session analysing it, a lock wait timed out) leaves it to
   * autovacuum. A table is remembered once it was found with statistics, not when analysed: a
   * rollback of the caller's transaction takes the statistics back too, and the next write asks again.
   */
  private withStatistics(table: string, rows: number): boolean {
    if (this.withStatisticsKnown.has(table)) return true;
    const statistics = dialectOf(this.db).tableStatistics(table);
    if (statistics && this.db.prepare(statistics.missing).get() !== undefined) {
      // Small writes gather them too once the table holds enough rows to describe it (a chain's
      // stores push a handful of sales each: otherwise only autovacuum would, a minute or more later).
      if (rows < STATISTICS_ROWS && !this.holdsAtLeast(table, STATISTICS_ROWS)) return false;
      try {
        this.db.transaction(() => this.db.exec(statistics.analyze))();
        return true;
      } catch {
        // autovacuum will gather them
        return false;
      }
    }
    this.withStatisticsKnown.add(table);
    return true;
  }

  /** Whether the table has at least `rows` rows (read up to that many, no more). */
  private holdsAtLeast(table: string, rows: number): boolean {
    return (this.db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} LIMIT ${rows}) AS head`).get() as { n: number | bigint }).n >= rows;
  }

  /** Deletes the record and its children. Call inside a transaction. */
  remove(def: EntityDef, contractId: string, id: string): void {
    const keys = keyValues(def, id);
    for (const child of def.children ?? []) {
      this.stmt(`DELETE FROM ${child.table} WHERE contract_id = ? AND ${child.parentKey} = ?`).run(contractId, keys[0]);
    }
    this.stmt(`DELETE FROM ${def.table} WHERE ${this.where(def)}`).run(contractId, ...keys);
  }

  private known(table: string, row: Record<string, unknown>): [string[], unknown[]] {
    const cols = this.columnsOf(table);
    const names = Object.keys(row).filter((c) => cols.has(c));
    return [names, names.map((c) => toSqlValue(row[c]))];
  }

  /**
   * Inserts the rows in order, several per statement (rows listing the same columns): a sale's
   * lines or a closing's link rows cost one statement instead of one each, which on PostgreSQL is
   * one round trip instead of one each. At most INSERT_ROWS rows and INSERT_VALUES values a statement.
   */
  private insertAll(table: string, rows: readonly Record<string, unknown>[]): void {
    for (let i = 0; i < rows.length; ) {
      const [names, first] = this.known(table, rows[i]!);
      const values = [...first];
      const most = Math.max(1, Math.min(INSERT_ROWS, Math.floor(INSERT_VALUES / Math.max(1, names.length))));
      let n = 1;
      for (; n < most && i + n < rows.length; n++) {
        const [next, more] = this.known(table, rows[i + n]!);
        if (next.length !== names.length || next.some((c, k) => c !== names[k])) break;
        values.push(...more);
      }
      const tuple = `(${names.map(() => '?').join(', ')})`;
      this.stmt(`INSERT INTO ${table} (${names.join(', ')}) VALUES ${Array.from({ length: n }, () => tuple).join(', ')}`).run(...values);
      i += n;
    }
  }

  private upsert(table: string, conflict: string[], row: Record<string, unknown>): void {
    const [names, values] = this.known(table, row);
    const updates = names.filter((c) => !conflict.includes(c));
    const onConflict = updates.length
      ? `ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${updates.map((c) => `${c} = excluded.${c}`).join(', ')}`
      : `ON CONFLICT (${conflict.join(', ')}) DO NOTHING`;
    this.stmt(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ${onConflict}`).run(...values);
  }
}

/** Rows per multi-row insert: the statements cached per table stay few (one per row count). */
const INSERT_ROWS = 50;
/** Bound values per statement, well under either engine's limit (SQLite's oldest default was 999). */
const INSERT_VALUES = 999;

/**
 * Bound values per writeMany statement: SQLite's limit as better-sqlite3 builds it
 * (SQLITE_MAX_VARIABLE_NUMBER 32,766), half of PostgreSQL's 65,535.
 */
const BULK_VALUES = 32_766;

/** Rows per writeMany statement where a column's values are one array (insertRows' 'columns'): a push batch's at most. */
const BULK_ROWS = 5_000;

/**
 * The fewest rows a writeMany writes into a parent table without planner statistics for it to
 * gather them (withStatistics): a handful of rows would describe the table wrongly (one contract's
 * few sales make contract_id look unique, and the checks' plans would scan a contract's rows).
 */
const STATISTICS_ROWS = 100;

/** JSON carries numbers, strings, booleans and null; SQLite takes all but booleans as they are. */
function toSqlValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}
