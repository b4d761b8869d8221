/**
 * A database schema as both engines can be read into it, so a test can compare them: tables and
 * views with their columns (name, nullability, a normalised type class, default), primary keys,
 * unique constraints, foreign keys, indexes and trigger names. Constraint and index names PostgreSQL makes up
 * (for a primary key or UNIQUE) are not compared, only their columns.
 */
import type pg from 'pg';
import type { Sqlite } from '../../server/db/open.js';

export interface Column {
  name: string;
  type: string;
  notNull: boolean;
  default: string | null;
}
export interface Relation {
  kind: 'table' | 'view';
  columns: Column[];
  primaryKey: string[];
  uniques: string[];
  /** `cols -> table(cols) on delete action`, sorted. */
  foreignKeys: string[];
}
export interface Index {
  table: string;
  unique: boolean;
  columns: string[];
  partial: boolean;
}
export interface SchemaShape {
  relations: Record<string, Relation>;
  indexes: Record<string, Index>;
  triggers: string[];
}

function sqliteTypeClass(declared: string): string {
  const t = declared.toUpperCase();
  if (t === '') return 'any';
  if (t.includes('INT')) return 'integer';
  if (/CHAR|CLOB|TEXT/.test(t)) return 'text';
  if (/REAL|FLOA|DOUB/.test(t)) return 'real';
  if (t.includes('BLOB')) return 'blob';
  return 'numeric';
}

function postgresTypeClass(dataType: string): string {
  if (['bigint', 'integer', 'smallint'].includes(dataType)) return 'integer';
  if (['text', 'character varying', 'character'].includes(dataType)) return 'text';
  if (['real', 'double precision'].includes(dataType)) return 'real';
  if (dataType === 'bytea') return 'blob';
  return dataType;
}

/** '0'::text, ('0'), 0 and '0' are the same default. */
export function normaliseDefault(value: string | null): string | null {
  if (value === null) return null;
  let v = value.trim();
  for (let i = 0; i < 3; i++) v = v.replace(/::[a-z ]+(\[\])?$/i, '').replace(/^\((.*)\)$/s, '$1').trim();
  return v.replace(/^'(.*)'$/s, '$1').replace(/''/g, "'");
}

/** A primary-key column is NOT NULL on PostgreSQL; SQLite only enforces it for some tables. */
function withKeyNotNull(columns: Column[], key: string[]): Column[] {
  return columns.map((c) => (key.includes(c.name) ? { ...c, notNull: true } : c));
}

const foreignKey = (from: string[], table: string, to: string[], onDelete: string) => `${from.join(',')} -> ${table}(${to.join(',')}) on delete ${onDelete}`;

function sqliteForeignKeys(db: Sqlite, table: string): string[] {
  const rows = db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as { id: number; table: string; from: string; to: string | null; on_delete: string }[];
  const keys = new Map<number, typeof rows>();
  for (const r of rows) keys.set(r.id, [...(keys.get(r.id) ?? []), r]);
  return [...keys.values()]
    .map((parts) => {
      const target = parts[0]!.table;
      // `REFERENCES t` without columns names t's primary key.
      const targetKey = (db.prepare(`PRAGMA table_info("${target}")`).all() as { name: string; pk: number }[]).filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      const to = parts.map((p, i) => p.to ?? targetKey[i] ?? '?');
      return foreignKey(parts.map((p) => p.from), target, to, parts[0]!.on_delete.toLowerCase());
    })
    .sort();
}

export function sqliteShape(db: Sqlite): SchemaShape {
  const shape: SchemaShape = { relations: {}, indexes: {}, triggers: [] };
  const objects = db
    .prepare("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string; type: 'table' | 'view' }[];
  for (const { name, type } of objects) {
    const info = db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[];
    const primaryKey = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    const columns = info.map((c) => ({ name: c.name, type: sqliteTypeClass(c.type), notNull: c.notnull === 1, default: normaliseDefault(c.dflt_value) }));
    const uniques: string[] = [];
    for (const index of db.prepare(`PRAGMA index_list("${name}")`).all() as { name: string; unique: number; origin: string; partial: number }[]) {
      const cols = (db.prepare(`PRAGMA index_info("${index.name}")`).all() as { name: string | null }[]).map((c) => c.name ?? '<expression>');
      if (index.origin === 'u') uniques.push(cols.join(','));
      if (index.origin === 'c') shape.indexes[index.name] = { table: name, unique: index.unique === 1, columns: cols, partial: index.partial === 1 };
    }
    shape.relations[name] = { kind: type, columns: withKeyNotNull(columns, primaryKey), primaryKey, uniques: uniques.sort(), foreignKeys: sqliteForeignKeys(db, name) };
  }
  shape.triggers = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
  return shape;
}

export async function postgresShape(db: pg.Client | pg.Pool): Promise<SchemaShape> {
  const shape: SchemaShape = { relations: {}, indexes: {}, triggers: [] };
  const relations = await db.query<{ name: string; type: string }>(
    "SELECT table_name AS name, table_type AS type FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  const columns = await db.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
    "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
  );
  const keys = await db.query<{ table_name: string; contype: string; cols: string[] }>(`
    SELECT t.relname AS table_name, c.contype,
      array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS cols
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
    WHERE ns.nspname = 'public' AND c.contype IN ('p', 'u')`);
  const foreign = await db.query<{ table_name: string; cols: string[]; target: string; target_cols: string[]; on_delete: string }>(`
    SELECT t.relname AS table_name, ft.relname AS target,
      array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS cols,
      array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o)
            JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS target_cols,
      CASE c.confdeltype WHEN 'a' THEN 'no action' WHEN 'r' THEN 'restrict' WHEN 'c' THEN 'cascade' WHEN 'n' THEN 'set null' ELSE 'set default' END AS on_delete
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class ft ON ft.oid = c.confrelid
    JOIN pg_namespace ns ON ns.oid = t.relnamespace
    WHERE ns.nspname = 'public' AND c.contype = 'f'`);
  for (const r of relations.rows) {
    const key = keys.rows.find((k) => k.table_name === r.name && k.contype === 'p')?.cols ?? [];
    const cols = columns.rows
      .filter((c) => c.table_name === r.name)
      .map((c) => ({ name: c.column_name, type: postgresTypeClass(c.data_type), notNull: c.is_nullable === 'NO', default: normaliseDefault(c.column_default) }));
    const uniques = keys.rows.filter((k) => k.table_name === r.name && k.contype === 'u').map((k) => k.cols.join(','));
    const foreignKeys = foreign.rows.filter((f) => f.table_name === r.name).map((f) => foreignKey(f.cols, f.target, f.target_cols, f.on_delete));
    shape.relations[r.name] = {
      kind: r.type === 'VIEW' ? 'view' : 'table',
      columns: withKeyNotNull(cols, key),
      primaryKey: key,
      uniques: uniques.sort(),
      foreignKeys: foreignKeys.sort(),
    };
  }
  const indexes = await db.query<{ name: string; table_name: string; unique: boolean; cols: string[]; partial: boolean }>(`
    SELECT ic.relname AS name, t.relname AS table_name, i.indisunique AS unique, i.indpred IS NOT NULL AS partial,
      array(SELECT coalesce(a.attname::text, '<expression>') FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o)
            LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY k.o) AS cols
    FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_namespace ns ON ns.oid = t.relnamespace
    WHERE ns.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`);
  for (const i of indexes.rows) shape.indexes[i.name] = { table: i.table_name, unique: i.unique, columns: i.cols, partial: i.partial };
  const triggers = await db.query<{ name: string }>(`
    SELECT tg.tgname AS name FROM pg_trigger tg JOIN pg_class t ON t.oid = tg.tgrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
    WHERE ns.nspname = 'public' AND NOT tg.tgisinternal ORDER BY tg.tgname`);
  shape.triggers = triggers.rows.map((t) => t.name);
  return shape;
}

const show = (value: unknown) => JSON.stringify(value);

/** Every difference between two shapes, one line each; empty when they are the same. */
export function schemaDifferences(sqlite: SchemaShape, postgres: SchemaShape): string[] {
  const out: string[] = [];
  const names = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const name of names(sqlite.relations, postgres.relations)) {
    const s = sqlite.relations[name];
    const p = postgres.relations[name];
    if (!s || !p) {
      out.push(`${s ? s.kind : p!.kind} ${name}: only on ${s ? 'SQLite' : 'PostgreSQL'}`);
      continue;
    }
    if (s.kind !== p.kind) out.push(`${name}: a ${s.kind} on SQLite, a ${p.kind} on PostgreSQL`);
    const order = (r: Relation) => r.columns.map((c) => c.name).join(',');
    if (order(s) !== order(p)) out.push(`${name}: columns in another order or set: SQLite ${order(s)} / PostgreSQL ${order(p)}`);
    for (const col of s.columns) {
      const other = p.columns.find((c) => c.name === col.name);
      if (!other) continue;
      for (const field of ['type', 'notNull', 'default'] as const) {
        if (s.kind === 'view' && field !== 'type') continue;
        if (col[field] !== other[field]) out.push(`${name}.${col.name}: ${field} ${show(col[field])} on SQLite, ${show(other[field])} on PostgreSQL`);
      }
    }
    if (show(s.primaryKey) !== show(p.primaryKey)) out.push(`${name}: primary key ${show(s.primaryKey)} on SQLite, ${show(p.primaryKey)} on PostgreSQL`);
    if (show(s.uniques) !== show(p.uniques)) out.push(`${name}: unique keys ${show(s.uniques)} on SQLite, ${show(p.uniques)} on PostgreSQL`);
    if (show(s.foreignKeys) !== show(p.foreignKeys)) out.push(`${name}: foreign keys ${show(s.foreignKeys)} on SQLite, ${show(p.foreignKeys)} on PostgreSQL`);
  }
  for (const name of names(sqlite.indexes, postgres.indexes)) {
    const s = sqlite.indexes[name];
    const p = postgres.indexes[name];
    if (!s || !p) out.push(`index ${name}: only on ${s ? 'SQLite' : 'PostgreSQL'}`);
    else if (show(s) !== show(p)) out.push(`index ${name}: ${show(s)} on SQLite, ${show(p)} on PostgreSQL`);
  }
  for (const name of [...new Set([...sqlite.triggers, ...postgres.triggers])].sort()) {
    if (!postgres.triggers.includes(name)) out.push(`trigger ${name}: no PostgreSQL counterpart`);
    if (!sqlite.triggers.includes(name)) out.push(`trigger ${name}: only on PostgreSQL`);
  }
  return out;
}
