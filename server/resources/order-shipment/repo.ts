import type { AppDeps } from '../../deps.js';
import { selectPage } from '../../db/sql.js';
import { BadRequest, Conflict, NotFound } from '../../http/problem.js';
import type { Page } from '../../http/paging.js';
import { ORDER_SHIPMENT_EVENT, raiseEvent } from '../../../sync/webhooks/events.js';
import type { CreateOrder } from './schema.js';

export interface OrderShipmentOrderRow {
  contract_id: string;
  order_head_id: number;
  store_id: number;
  order_code: string | null;
  status: 'received' | 'shipped' | 'canceled';
  shipped_at: number | null;
  canceled_at: number | null;
  ins_at: number;
  upd_at: number;
}

export const ORDER_SHIPMENT_ENTITY = 'order_shipment_order';
const ORDERS = { table: 'order_shipment_orders', key: 'order_head_id' };
const SORT_COLUMNS = { orderHeadId: 'order_head_id', storeId: 'store_id', updDateTime: 'upd_at' };

type Deps = Pick<AppDeps, 'db' | 'writer' | 'ids' | 'clock'>;

/**
 * Order heads of the order-shipment API (supporting resource of 6.1): created received,
 * then shipped or canceled once; each of those raises the 6.1 notice in the same transaction.
 */
export class OrderShipmentOrderRepo {
  constructor(private readonly deps: Deps) {}

  find(contractId: string, orderHeadId: string | number): OrderShipmentOrderRow | undefined {
    return this.deps.db
      .prepare('SELECT * FROM order_shipment_orders WHERE contract_id = ? AND order_head_id = ?')
      .get(contractId, orderHeadId) as OrderShipmentOrderRow | undefined;
  }

  get(contractId: string, orderHeadId: string): OrderShipmentOrderRow {
    const row = this.find(contractId, orderHeadId);
    if (!row) throw NotFound.field('order_head_id', `order ${orderHeadId} does not exist`);
    return row;
  }

  create(contractId: string, input: CreateOrder): OrderShipmentOrderRow {
    const { db, writer, ids, clock } = this.deps;
    return writer.write(() => {
      if (!db.prepare('SELECT 1 FROM stores WHERE contract_id = ? AND store_id = ?').get(contractId, input.storeId)) {
        throw BadRequest.field('storeId', `store ${input.storeId} does not exist`);
      }
      const orderHeadId = ids.next('order_shipment_orders');
      const now = clock.now().getTime();
      db.prepare(
        `INSERT INTO order_shipment_orders (contract_id, order_head_id, store_id, order_code, ins_at, upd_at) VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(contractId, orderHeadId, Number(input.storeId), input.orderCode ?? null, now, now);
      writer.changed({ contractId, entity: ORDER_SHIPMENT_ENTITY, id: orderHeadId, op: 'insert' });
      return this.get(contractId, orderHeadId);
    });
  }

  ship(contractId: string, orderHeadId: string): OrderShipmentOrderRow {
    return this.transition(contractId, orderHeadId, 'shipped');
  }

  cancel(contractId: string, orderHeadId: string): OrderShipmentOrderRow {
    return this.transition(contractId, orderHeadId, 'canceled');
  }

  /** received → shipped or canceled, once: anything else is a 409 naming the current status. */
  private transition(contractId: string, orderHeadId: string, to: 'shipped' | 'canceled'): OrderShipmentOrderRow {
    const { db, writer } = this.deps;
    return writer.write(() => {
      const current = this.get(contractId, orderHeadId);
      if (current.status !== 'received') {
        throw new Conflict(`[order_head_id] order ${current.order_head_id} is already ${current.status}; only a received order can be ${to}`);
      }
      const now = this.deps.clock.now().getTime();
      db.prepare(
        `UPDATE order_shipment_orders SET status = ?, ${to === 'shipped' ? 'shipped_at' : 'canceled_at'} = ?, upd_at = ?
         WHERE contract_id = ? AND order_head_id = ?`,
      ).run(to, now, now, contractId, current.order_head_id);
      const id = String(current.order_head_id);
      writer.changed({ contractId, entity: ORDER_SHIPMENT_ENTITY, id, op: 'update' });
      raiseEvent({ db, ids: this.deps.ids, clock: this.deps.clock }, {
        contractId,
        event: ORDER_SHIPMENT_EVENT,
        action: to,
        payload: { storeId: String(current.store_id), orderHeadIds: [id] },
        cause: { entity: ORDER_SHIPMENT_ENTITY, id, op: 'update' },
      });
      return this.get(contractId, orderHeadId);
    });
  }

  list(contractId: string, filters: { storeId?: string; status?: string }, page: Page<keyof typeof SORT_COLUMNS>): OrderShipmentOrderRow[] {
    return selectPage<OrderShipmentOrderRow, keyof typeof SORT_COLUMNS>(
      this.deps.db,
      ORDERS,
      contractId,
      { store_id: filters.storeId === undefined ? undefined : Number(filters.storeId), status: filters.status },
      page,
      SORT_COLUMNS,
    );
  }
}
