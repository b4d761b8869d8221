import type { Statement } from 'better-sqlite3';
import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectFilteredPage } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import { fromUnits, PRICE_SCALE, toUnits } from '../../domain/money.js';
import { CategoryRepo } from '../categories/repo.js';
import { StoreRepo } from '../stores/repo.js';
import type { BargainProductRow, BargainRepo, BargainRow, BargainStoreRow } from './repo.js';
import type { CreateBargainProduct, CreateBargainStore, ListBargainProductsQuery, ListBargainStoresQuery, UpdateBargainProduct } from './schema.js';

const STORE_SORT = { bargainStoreId: 'bargain_store_id', storeId: 'store_id' };
const PRODUCT_SORT = { bargainProductId: 'bargain_product_id', targetDivision: 'target_division' };
const TARGET_NOUN = { '1': 'category', '2': 'product', '3': 'product group code' } as const;
const HUNDRED_PERCENT = toUnits('100', PRICE_SCALE);

type Target = Pick<CreateBargainProduct, 'targetDivision' | 'targetId' | 'division' | 'value'>;

/**
 * A bargain's stores (GET/POST /bargains/{id}/stores, DELETE .../{bargain_store_id}) and targets
 * (GET/POST /bargains/{id}/products, PATCH and DELETE .../{bargain_product_id}). Each write is
 * reported as an update of its bargain, with which it travels.
 */
export class BargainTargets {
  private readonly stores: StoreRepo;
  private readonly categories: CategoryRepo;
  private readonly productRow: Statement<unknown[]>;
  private readonly storeRow: Statement<unknown[]>;
  private readonly storeOf: Statement<unknown[]>;
  private readonly productOf: Statement<unknown[]>;
  private readonly targetOf: Statement<unknown[]>;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
    private readonly bargains: BargainRepo,
  ) {
    this.stores = new StoreRepo(db, writer, ids, clock);
    this.categories = new CategoryRepo(db, writer, ids, clock);
    this.productRow = db.prepare('SELECT 1 FROM products WHERE contract_id = ? AND product_id = ?');
    this.storeRow = db.prepare('SELECT * FROM bargain_stores WHERE contract_id = ? AND bargain_store_id = ? AND bargain_id = ?');
    this.storeOf = db.prepare('SELECT * FROM bargain_stores WHERE contract_id = ? AND bargain_id = ? AND store_id = ?');
    this.productOf = db.prepare('SELECT * FROM bargain_products WHERE contract_id = ? AND bargain_product_id = ? AND bargain_id = ?');
    this.targetOf = db.prepare('SELECT * FROM bargain_products WHERE contract_id = ? AND bargain_id = ? AND target_division = ? AND target_id = ?');
  }

  listStores(contractId: string, bargainId: string, query: ListBargainStoresQuery): BargainStoreRow[] {
    const bargain = this.bargains.get(contractId, bargainId);
    const conditions: [string, number | undefined][] = [
      ['bargain_id = ?', bargain.bargain_id],
      ['store_id = ?', query.store_id === undefined ? undefined : Number(query.store_id)],
    ];
    return selectFilteredPage(this.db, { table: 'bargain_stores', key: 'bargain_store_id' }, contractId, conditions, query, STORE_SORT);
  }

  /** A normal store or warehouse (what /stores serves), once per bargain. */
  addStore(contractId: string, bargainId: string, body: CreateBargainStore): BargainStoreRow {
    return this.writer.write(() => {
      const bargain = this.bargains.get(contractId, bargainId);
      const store = this.stores.find(contractId, body.storeId);
      if (!store || store.order_receiving === '1') throw InvalidInput.field('storeId', `store ${body.storeId} does not exist`);
      const taken = this.storeOf.get(contractId, bargain.bargain_id, Number(body.storeId)) as BargainStoreRow | undefined;
      if (taken) throw InvalidInput.field('storeId', `store ${body.storeId} is already in bargain ${bargain.bargain_id} (bargain store ${taken.bargain_store_id})`);
      const id = Number(this.ids.next('bargain_stores'));
      const now = this.clock.now().getTime();
      this.db
        .prepare('INSERT INTO bargain_stores (contract_id, bargain_store_id, bargain_id, store_id, ins_at, upd_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(contractId, id, bargain.bargain_id, Number(body.storeId), now, now);
      this.bargains.childrenChanged(contractId, bargain);
      return this.storeRow.get(contractId, id, bargain.bargain_id) as BargainStoreRow;
    });
  }

  removeStore(contractId: string, bargainId: string, bargainStoreId: string): void {
    this.writer.write(() => {
      const bargain = this.bargains.get(contractId, bargainId);
      if (!this.storeRow.get(contractId, bargainStoreId, bargain.bargain_id)) {
        throw NotFoundError.field('bargain_store_id', `bargain store ${bargainStoreId} of bargain ${bargain.bargain_id} does not exist`);
      }
      this.db.prepare('DELETE FROM bargain_stores WHERE contract_id = ? AND bargain_store_id = ?').run(contractId, Number(bargainStoreId));
      this.bargains.childrenChanged(contractId, bargain);
    });
  }

  listProducts(contractId: string, bargainId: string, query: ListBargainProductsQuery): BargainProductRow[] {
    const bargain = this.bargains.get(contractId, bargainId);
    const conditions: [string, string | number | undefined][] = [
      ['bargain_id = ?', bargain.bargain_id],
      ['target_division = ?', query.target_division],
      ['division = ?', query.division],
    ];
    return selectFilteredPage(this.db, { table: 'bargain_products', key: 'bargain_product_id' }, contractId, conditions, query, PRODUCT_SORT);
  }

  getProduct(contractId: string, bargainId: string, bargainProductId: string): BargainProductRow {
    return this.productRowOf(contractId, this.bargains.get(contractId, bargainId), bargainProductId);
  }

  addProduct(contractId: string, bargainId: string, body: CreateBargainProduct): BargainProductRow {
    return this.writer.write(() => {
      const bargain = this.bargains.get(contractId, bargainId);
      this.assertTarget(contractId, bargain, body, null);
      const id = Number(this.ids.next('bargain_products'));
      const now = this.clock.now().getTime();
      this.db
        .prepare(
          `INSERT INTO bargain_products (contract_id, bargain_product_id, bargain_id, target_division, target_id, division, value_units, ins_at, upd_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(contractId, id, bargain.bargain_id, body.targetDivision, body.targetId, body.division, toUnits(body.value, PRICE_SCALE), now, now);
      this.bargains.childrenChanged(contractId, bargain);
      return this.productRowOf(contractId, bargain, String(id));
    });
  }

  /** The path first (404), then the target after the change, checked as on registration (400). */
  updateProduct(contractId: string, bargainId: string, bargainProductId: string, patch: UpdateBargainProduct): BargainProductRow {
    return this.writer.write(() => {
      const bargain = this.bargains.get(contractId, bargainId);
      const current = this.productRowOf(contractId, bargain, bargainProductId);
      const next: Target = {
        targetDivision: patch.targetDivision ?? current.target_division,
        targetId: patch.targetId ?? current.target_id,
        division: patch.division ?? current.division,
        value: patch.value ?? fromUnits(current.value_units, PRICE_SCALE),
      };
      this.assertTarget(contractId, bargain, next, current.bargain_product_id);
      this.db
        .prepare(
          `UPDATE bargain_products SET target_division = ?, target_id = ?, division = ?, value_units = ?, upd_at = ?
           WHERE contract_id = ? AND bargain_product_id = ?`,
        )
        .run(
          next.targetDivision,
          next.targetId,
          next.division,
          toUnits(next.value, PRICE_SCALE),
          this.clock.now().getTime(),
          contractId,
          current.bargain_product_id,
        );
      this.bargains.childrenChanged(contractId, bargain);
      return this.productRowOf(contractId, bargain, bargainProductId);
    });
  }

  removeProduct(contractId: string, bargainId: string, bargainProductId: string): void {
    this.writer.write(() => {
      const bargain = this.bargains.get(contractId, bargainId);
      const current = this.productRowOf(contractId, bargain, bargainProductId);
      this.db.prepare('DELETE FROM bargain_products WHERE contract_id = ? AND bargain_product_id = ?').run(contractId, current.bargain_product_id);
      this.bargains.childrenChanged(contractId, bargain);
    });
  }

  private productRowOf(contractId: string, bargain: BargainRow, bargainProductId: string): BargainProductRow {
    const row = this.productOf.get(contractId, bargainProductId, bargain.bargain_id) as BargainProductRow | undefined;
    if (!row) throw NotFoundError.field('bargain_product_id', `bargain product ${bargainProductId} of bargain ${bargain.bargain_id} does not exist`);
    return row;
  }

  /**
   * A category or product target must exist (its id is digits); a group code is taken as given
   * (this server's products carry none). One entry per target and bargain; a rate is at most 100.
   */
  private assertTarget(contractId: string, bargain: BargainRow, target: Target, self: number | null): void {
    const { targetDivision, targetId } = target;
    if (targetDivision !== '3') {
      const exists = /^\d{1,9}$/.test(targetId) && (targetDivision === '1' ? !!this.categories.find(contractId, targetId) : this.productRow.get(contractId, targetId) !== undefined);
      if (!exists) throw InvalidInput.field('targetId', `${TARGET_NOUN[targetDivision]} ${targetId} does not exist`);
    }
    const other = this.targetOf.get(contractId, bargain.bargain_id, targetDivision, targetId) as BargainProductRow | undefined;
    if (other && other.bargain_product_id !== self) {
      throw InvalidInput.field('targetId', `${TARGET_NOUN[targetDivision]} ${targetId} is already a target of bargain ${bargain.bargain_id} (bargain product ${other.bargain_product_id})`);
    }
    if (target.division === '1' && toUnits(target.value, PRICE_SCALE) > HUNDRED_PERCENT) throw InvalidInput.field('value', 'must be at most 100 (percent) when division is 1');
  }
}
