import { assertReceivingUpdatable, INSPECTION, MAX_SHIPPING_DETAILS, NOT_RECEIVED, NOT_SHIPPED, RECEIVED, receivingInspected } from '../../domain/shipping.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import type { Contract } from '../../platform/contracts/repo.js';
import { ruled, type Actor, type ShippingOperations } from './operations.js';
import { SHIPPING_ENTITY, type ReceivingDetailRow, type ShippingRow, type ShippingValues } from './repo.js';
import type { ReceivingDetailInput, UpdateReceiving } from './receiving-schema.js';

export interface ReceivingRecord {
  row: ShippingRow;
  details: ReceivingDetailRow[];
}

const n = (v: string) => Number(v);

/**
 * The receiving side of a shipping (the platform's 入庫): the receiving store records what it
 * counted. Its first update starts the inspection (1 → 2); the update after which every detail
 * is inspected (counted plus missing equals scheduled) completes it (→ 3), and the counted
 * quantities enter the receiving store's stock. Refused while a modification request is open.
 */
export class ReceivingOperations {
  constructor(private readonly shipping: ShippingOperations) {}

  /** The path's receiving: a shipping sent out (status 1 or later), or 404. */
  get(contractId: string, receivingId: string): ShippingRow {
    const row = this.shipping.repo.find(contractId, receivingId);
    if (!row) throw NotFoundError.field('receiving_id', `receiving ${receivingId} does not exist`);
    if (row.status === NOT_SHIPPED) throw NotFoundError.field('receiving_id', `receiving ${receivingId} does not exist: shipping ${receivingId} has not been sent out (status 0)`);
    return row;
  }

  record(contractId: string, row: ShippingRow): ReceivingRecord {
    const { repo } = this.shipping;
    return { row: repo.find(contractId, row.shipping_id)!, details: repo.receivingDetails(contractId, row.shipping_id) };
  }

  update(contract: Contract, receivingId: string, patch: UpdateReceiving, actor: Actor = {}): ReceivingRecord {
    const { contractId } = contract;
    const { repo, writer } = this.shipping;
    return writer.write(() => {
      const row = this.get(contractId, receivingId);
      ruled(() => assertReceivingUpdatable({ shippingId: receivingId, status: row.status, modificationRequestStatus: row.modification_request_status }));
      const receivingDate = patch.receivingDate ?? row.receiving_date;
      if (receivingDate === null) throw InvalidInput.field('receivingDate', `is required: receiving ${receivingId} has no receiving date yet`);
      if (patch.staffId !== undefined && patch.staffId !== null && !repo.hasStaff(contractId, patch.staffId)) {
        throw InvalidInput.field('staffId', `staff ${patch.staffId} does not exist`);
      }
      const now = this.shipping.now();
      if (patch.details) this.applyDetails(contractId, row.shipping_id, patch.details, now);
      const values: ShippingValues = { receiving_date: receivingDate };
      if (patch.memo !== undefined) values.memo = patch.memo;
      if (patch.staffId !== undefined) values.receiving_staff_id = patch.staffId === null ? null : n(patch.staffId);
      if (row.status === NOT_RECEIVED) values.status = INSPECTION;
      const details = repo.receivingDetails(contractId, row.shipping_id);
      const complete = receivingInspected(
        details.map((d) => ({ scheduledQuantity: d.scheduled_quantity, inspectionQuantity: d.inspection_quantity, stockoutQuantity: d.stockout_quantity })),
      );
      if (complete) Object.assign(values, { status: RECEIVED, received_at: now });
      repo.update(contractId, row.shipping_id, values, now);
      if (complete) this.shipping.completeReceiving(contractId, repo.find(contractId, row.shipping_id)!, now, actor);
      writer.changed({ contractId, entity: SHIPPING_ENTITY, id: receivingId, op: 'update' });
      return this.record(contractId, row);
    });
  }

  /** Records inspections of receiving details (by receivingDetailId) and adds products the shipping does not list (by productId). */
  private applyDetails(contractId: string, shippingId: number, inputs: ReceivingDetailInput[], now: number): void {
    const { repo } = this.shipping;
    const existing = repo.receivingDetails(contractId, shippingId);
    const byId = new Map(existing.map((d) => [String(d.receiving_detail_id), d]));
    const products = new Map<string, number>(existing.map((d) => [String(d.product_id), -1]));
    const done = new Set<string>();
    const added: { productId: string; input: ReceivingDetailInput }[] = [];
    inputs.forEach((input, i) => {
      const at = `details.${i}`;
      const inspection = {
        inspection: n(input.inspectionQuantity),
        stockout: n(input.stockoutQuantity),
        reason: input.stockoutReason ?? null,
        date: input.inspectionDate,
      };
      if (input.receivingDetailId === undefined) {
        if (input.productId === undefined) throw InvalidInput.field(`${at}.productId`, 'is required to add a detail (no receivingDetailId)');
        if (!repo.hasProduct(contractId, input.productId)) throw InvalidInput.field(`${at}.productId`, `product ${input.productId} does not exist`);
        const first = products.get(input.productId);
        if (first !== undefined) {
          throw InvalidInput.field(`${at}.productId`, first < 0 ? `product ${input.productId} is already in the receiving` : `product ${input.productId} is already in details[${first}]`);
        }
        products.set(input.productId, i);
        added.push({ productId: input.productId, input });
        return;
      }
      const detail = byId.get(input.receivingDetailId);
      if (!detail) throw InvalidInput.field(`${at}.receivingDetailId`, `receiving detail ${input.receivingDetailId} is not a detail of receiving ${shippingId}`);
      if (done.has(input.receivingDetailId)) throw InvalidInput.field(`${at}.receivingDetailId`, `receiving detail ${input.receivingDetailId} is given twice`);
      if (input.productId !== undefined && input.productId !== String(detail.product_id)) {
        throw InvalidInput.field(`${at}.productId`, `receiving detail ${input.receivingDetailId} is of product ${detail.product_id}, not ${input.productId}`);
      }
      done.add(input.receivingDetailId);
      repo.setInspection(contractId, shippingId, { receivingDetailId: detail.receiving_detail_id, ...inspection }, now);
    });
    if (existing.length + added.length > MAX_SHIPPING_DETAILS) {
      throw InvalidInput.field('details', `a receiving has at most ${MAX_SHIPPING_DETAILS} details: ${existing.length} existing plus ${added.length} added`);
    }
    for (const { productId, input } of added) {
      repo.addReceivingDetail(
        contractId,
        shippingId,
        {
          receivingDetailId: this.shipping.nextReceivingDetailId(),
          productId: n(productId),
          scheduled: 0,
          inspection: n(input.inspectionQuantity),
          stockout: n(input.stockoutQuantity),
          reason: input.stockoutReason ?? null,
          date: input.inspectionDate,
        },
        now,
      );
    }
  }
}
