import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../db/open.js';
import { dialectOf } from '../../db/engine.js';
import { orderBy } from '../../db/sql.js';
import { fetchSize, offsetOf, type Page } from '../../platform/http/paging.js';
import { parseDateTime } from '../../domain/time.js';
import type { CategoryRow } from '../../masters/categories/repo.js';
import type { ProductRow } from '../../masters/products/repo.js';
import { COUPON_FIELDS, DETAIL_FIELDS, HEADER_FIELDS, insertSql, OTHER_FIELDS, recOfRow, valuesOf, type Field, type Rec } from './catalog.js';
import { RANGES, type ChildrenWanted, type ListTransactionsQuery, type TransactionSort } from './query.js';

/** A transaction as records keyed by field name (storage values; see catalog.ts). */
export interface TransactionRecord {
  header: Rec;
  details: Rec[];
  depositOthers: Rec[];
  coupons: Rec[];
  /** Whether registering it changed the member's points and miles (column points_applied, not output). */
  pointsApplied?: boolean;
}

const SORT_COLUMNS: Record<TransactionSort, string> = {
  transactionHeadId: 'transaction_head_id',
  transactionDateTime: 'transaction_at',
  terminalTranDateTime: 'terminal_tran_at',
  updDateTime: 'upd_at',
  sumDate: 'sum_date',
  transactionHeadDivision: 'transaction_head_division',
  storeId: 'store_id',
  terminalId: 'terminal_id',
  customerId: 'customer_id',
  terminalTranId: 'terminal_tran_id',
};

const CHILDREN = [
  { key: 'details', table: 'transaction_details', fields: DETAIL_FIELDS, order: 'transaction_detail_id' },
  { key: 'depositOthers', table: 'transaction_deposit_others', fields: OTHER_FIELDS, order: 'line_no' },
  { key: 'coupons', table: 'transaction_coupons', fields: COUPON_FIELDS, order: 'coupon_no' },
] as const;

/** SQL of the transactions tables (and the master look-ups a registration needs in one query each). */
export class TransactionRepo {
  private readonly insertHeader;
  private readonly insertChild: Record<(typeof CHILDREN)[number]['key'], Statement>;
  private readonly childrenOf: Record<(typeof CHILDREN)[number]['key'], Statement>;
  private readonly childrenIn: Record<(typeof CHILDREN)[number]['key'], Statement>;
  private readonly byId;
  private readonly exists;
  private readonly disposed;
  private readonly productsIn;
  private readonly categoriesIn;
  private readonly lists = new Map<string, Statement>();
  /** Several ids in one statement: the ids travel as one JSON array parameter (integer key columns). */
  private readonly inIds: string;

  constructor(private readonly db: Sqlite) {
    this.inIds = dialectOf(db).inJsonList('integer');
    this.insertHeader = db.prepare(insertSql('transactions', ['contract_id', 'ins_at', 'points_applied'], HEADER_FIELDS));
    const each = (make: (c: (typeof CHILDREN)[number]) => string) =>
      Object.fromEntries(CHILDREN.map((c) => [c.key, db.prepare(make(c))])) as Record<(typeof CHILDREN)[number]['key'], Statement>;
    this.insertChild = each((c) => insertSql(c.table, ['contract_id', 'transaction_head_id'], c.fields));
    this.childrenOf = each((c) => `SELECT * FROM ${c.table} WHERE contract_id = ? AND transaction_head_id = ? ORDER BY ${c.order}`);
    this.childrenIn = each(
      (c) => `SELECT * FROM ${c.table} WHERE contract_id = ? AND transaction_head_id ${this.inIds} ORDER BY transaction_head_id, ${c.order}`,
    );
    this.byId = db.prepare('SELECT * FROM transactions WHERE contract_id = ? AND transaction_head_id = ?');
    this.exists = db.prepare('SELECT 1 FROM transactions WHERE contract_id = ? AND transaction_head_id = ?').pluck();
    this.disposed = db.prepare(
      `UPDATE transactions SET dispose_division = '1', cancel_at = @now, upd_at = @now
       WHERE contract_id = @contractId AND transaction_head_id = @id`,
    );
    this.productsIn = db.prepare(`SELECT * FROM products WHERE contract_id = ? AND product_id ${this.inIds}`);
    this.categoriesIn = db.prepare(`SELECT * FROM categories WHERE contract_id = ? AND category_id ${this.inIds}`);
  }

  /** Inserts a whole transaction (call inside writer.write). Child records get the header's id. */
  insert(contractId: string, t: TransactionRecord, now: number): void {
    const headId = t.header.transactionHeadId as number;
    this.insertHeader.run(valuesOf(HEADER_FIELDS, t.header, [contractId, now, t.pointsApplied ? '1' : '0']));
    for (const c of CHILDREN) {
      for (const rec of t[c.key]) this.insertChild[c.key].run(valuesOf(c.fields, rec, [contractId, headId]));
    }
  }

  has(contractId: string, transactionHeadId: string | number): boolean {
    return this.exists.get(contractId, transactionHeadId) !== undefined;
  }

  find(contractId: string, transactionHeadId: string | number): TransactionRecord | undefined {
    const row = this.byId.get(contractId, transactionHeadId) as Record<string, unknown> | undefined;
    if (!row) return undefined;
    const child = (c: (typeof CHILDREN)[number]) =>
      (this.childrenOf[c.key].all(contractId, row.transaction_head_id) as Record<string, unknown>[]).map((r) => recOfRow(c.fields, r));
    return {
      header: recOfRow(HEADER_FIELDS, row),
      details: child(CHILDREN[0]),
      depositOthers: child(CHILDREN[1]),
      coupons: child(CHILDREN[2]),
      pointsApplied: row.points_applied === '1',
    };
  }

  /** One page of a transaction's lines (call after `has`); sorted by transactionDetailId unless told. */
  detailsPage(contractId: string, transactionHeadId: string | number, page: Page<'transactionDetailId'>): Rec[] {
    const sql = `SELECT * FROM transaction_details WHERE contract_id = ? AND transaction_head_id = ?
      ${orderBy(page.sort, { transactionDetailId: 'transaction_detail_id' }, 'transaction_detail_id')} LIMIT ? OFFSET ?`;
    const rows = this.db.prepare(sql).all(contractId, transactionHeadId, fetchSize(page), offsetOf(page)) as Record<string, unknown>[];
    return rows.map((r) => recOfRow(DETAIL_FIELDS, r));
  }

  /** Marks a return-cancelled source: disposeDivision 1, cancelDateTime now. */
  markDisposed(contractId: string, transactionHeadId: number, now: number): void {
    this.disposed.run({ contractId, id: transactionHeadId, now });
  }

  /** The products and categories named by the lines, each in one query. */
  products(contractId: string, ids: readonly number[]): Map<number, ProductRow> {
    const rows = ids.length ? (this.productsIn.all(contractId, JSON.stringify(ids)) as ProductRow[]) : [];
    return new Map(rows.map((r) => [r.product_id, r]));
  }

  categories(contractId: string, ids: readonly number[]): Map<number, CategoryRow> {
    const rows = ids.length ? (this.categoriesIn.all(contractId, JSON.stringify(ids)) as CategoryRow[]) : [];
    return new Map(rows.map((r) => [r.category_id, r]));
  }

  /** One page of headers, each with the child records `wanted` asks for (one query per kind). */
  list(contractId: string, query: ListTransactionsQuery, page: Page<TransactionSort>, wanted: ChildrenWanted): TransactionRecord[] {
    const where = ['contract_id = ?'];
    const params: (string | number)[] = [contractId];
    const cond = (sql: string, value: string | number | undefined) => {
      if (value === undefined) return;
      where.push(sql);
      params.push(value);
    };
    const num = (value: string | undefined) => (value === undefined ? undefined : Number(value));
    if (query.transaction_head_id !== undefined) {
      where.push(`transaction_head_id ${this.inIds}`);
      params.push(JSON.stringify(query.transaction_head_id.split(',').map(Number)));
    }
    cond('transaction_head_id >= ?', num(query['transaction_head_id-from']));
    cond('transaction_head_id <= ?', num(query['transaction_head_id-to']));
    cond('store_id = ?', num(query.store_id));
    cond('terminal_id = ?', num(query.terminal_id));
    cond('customer_id = ?', num(query.customer_id));
    cond('customer_id IN (SELECT customer_id FROM customers WHERE contract_id = transactions.contract_id AND customer_code = ?)', query.customer_code);
    cond('transaction_uuid = ?', query.transaction_uuid);
    cond('sum_division = ?', query.sum_division);
    cond('transaction_head_division = ?', query.transaction_head_division);
    cond('adjustment_at = ?', query.adjustment_date_time === undefined ? undefined : parseDateTime(query.adjustment_date_time)!);
    cond('sum_date = ?', query.sum_date);
    const values = query as Record<string, unknown>;
    for (const r of RANGES) {
      const bound = (edge: 'from' | 'to', op: string) => {
        const v = values[`${r.query}-${edge}`] as string | undefined;
        cond(`${r.column} ${op} ?`, v === undefined ? undefined : r.kind === 'time' ? parseDateTime(v)! : v);
      };
      bound('from', '>=');
      bound('to', '<=');
    }
    const sql = `SELECT * FROM transactions WHERE ${where.join(' AND ')} ${orderBy(page.sort, SORT_COLUMNS, 'transaction_head_id')} LIMIT ? OFFSET ?`;
    let statement = this.lists.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.lists.size < 500) this.lists.set(sql, statement);
    }
    const rows = statement.all(...params, fetchSize(page), offsetOf(page)) as Record<string, unknown>[];
    const out = rows.map((row) => ({ header: recOfRow(HEADER_FIELDS, row), details: [], depositOthers: [], coupons: [] }) as TransactionRecord);
    if (!out.length) return out;
    const byId = new Map(out.map((t) => [t.header.transactionHeadId as number, t]));
    const ids = JSON.stringify([...byId.keys()]);
    const load = { details: wanted.details !== 'none', depositOthers: wanted.depositOthers, coupons: wanted.coupons };
    for (const c of CHILDREN) {
      if (!load[c.key]) continue;
      for (const r of this.childrenIn[c.key].all(contractId, ids) as Record<string, unknown>[]) {
        byId.get(r.transaction_head_id as number)![c.key].push(recOfRow(c.fields as readonly Field[], r));
      }
    }
    return out;
  }
}
