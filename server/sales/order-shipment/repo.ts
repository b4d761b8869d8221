import type { AppDeps } from '../../deps.js';
import { MasterRepo } from '../../db/master-repo.js';
import { ConflictError, InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import { ORDER_SHIPMENT_EVENT, raiseEvent } from '../../events/webhook-events.js';
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
/** The transitions' writes (ship, cancel): no PATCH of an order head. */
const COLUMNS = { status: 'status', shippedAt: 'shipped_at', canceledAt: 'canceled_at' };
const SORT_COLUMNS = { orderHeadId: 'order_head_id', storeId: 'store_id', updDateTime: 'upd_at' };

type Deps = Pick<AppDeps, 'db' | 'writer' | 'ids' | 'clock'>;

/**
 * Order heads of the order-shipment API (supporting resource of 6.1): created received,
 * then shipped or canceled once; each of those raises the 6.1 notice in the same transaction.
 */
export class OrderShipmentOrderRepo extends MasterRepo<OrderShipmentOrderRow, keyof typeof SORT_COLUMNS> {
  constructor(private readonly deps: Deps) {
    super(deps.db, deps.writer, deps.clock, { entity: ORDER_SHIPMENT_ENTITY, noun: 'order', columns: COLUMNS, sort: SORT_COLUMNS });
  }

  create(contractId: string, input: CreateOrder): OrderShipmentOrderRow {
    const { db, writer, ids } = this.deps;
    return writer.write(() => {
      if (!db.prepare('SELECT 1 FROM stores WHERE contract_id = ? AND store_id = ?').get(contractId, input.storeId)) {
        throw InvalidInput.field('storeId', `store ${input.storeId} does not exist`);
      }
      const orderHeadId = this.insertRow(contractId, {
        order_head_id: ids.next('order_shipment_orders'),
        store_id: Number(input.storeId),
        order_code: input.orderCode ?? null,
      });
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
        throw new ConflictError(`[order_head_id] order ${current.order_head_id} is already ${current.status}; only a received order can be ${to}`);
      }
      const now = this.now();
      this.updateFields(contractId, current, { status: to, [to === 'shipped' ? 'shippedAt' : 'canceledAt']: now }, now);
      const id = this.idOf(current);
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
    return this.select(contractId, { store_id: filters.storeId === undefined ? undefined : Number(filters.storeId), status: filters.status }, page);
  }
}
