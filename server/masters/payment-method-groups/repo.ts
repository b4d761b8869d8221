import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import { sequenceValue, type CreatePaymentMethodGroup, type UpdatePaymentMethodGroup } from './schema.js';
import { PAYMENT_METHOD_GROUP_EVENT, raiseEvent } from '../../events/webhook-events.js';

export interface PaymentMethodGroupRow {
  contract_id: string;
  payment_method_group_id: number;
  payment_method_group_name: string;
  display_sequence: number | null;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = { paymentMethodGroupName: 'payment_method_group_name', displaySequence: 'display_sequence' };
const SORT_COLUMNS = {
  paymentMethodGroupId: 'payment_method_group_id',
  paymentMethodGroupName: 'payment_method_group_name',
  displaySequence: 'display_sequence',
  updDateTime: 'upd_at',
};

/**
 * Payment method groups. Every change is reported as entity `payment_method_group`
 * (insert, update, delete): the sync turns them into the 6.2 notice (created, edited, deleted).
 */
export class PaymentMethodGroupRepo extends MasterRepo<PaymentMethodGroupRow, keyof typeof SORT_COLUMNS> {
  private readonly members;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'payment_method_group', columns: COLUMNS, sort: SORT_COLUMNS });
    this.members = db.prepare(
      'SELECT payment_method_id FROM payment_methods WHERE contract_id = ? AND payment_method_group_id = ? ORDER BY payment_method_id',
    );
  }

  /** The group named in a body (400 `[field]` when it does not exist). */
  referenced(contractId: string, paymentMethodGroupId: string, field = 'paymentMethodGroupId'): PaymentMethodGroupRow {
    const row = this.find(contractId, paymentMethodGroupId);
    if (!row) throw InvalidInput.field(field, `payment method group ${paymentMethodGroupId} does not exist`);
    return row;
  }

  create(contractId: string, input: CreatePaymentMethodGroup): PaymentMethodGroupRow {
    return this.writer.write(() => {
      const id = this.insertRow(contractId, {
        payment_method_group_id: this.ids.next('payment_method_groups'),
        payment_method_group_name: input.paymentMethodGroupName,
        display_sequence: sequenceValue(input.displaySequence) ?? null,
      });
      this.notify(contractId, 'created', id, 'insert');
      return this.get(contractId, id);
    });
  }

  update(contractId: string, paymentMethodGroupId: string, patch: UpdatePaymentMethodGroup): PaymentMethodGroupRow {
    return this.writer.write(() => {
      const current = this.get(contractId, paymentMethodGroupId);
      const values = { ...patch, displaySequence: sequenceValue(patch.displaySequence) };
      if (this.updateFields(contractId, current, values)) this.notify(contractId, 'edited', this.idOf(current), 'update');
      return this.get(contractId, paymentMethodGroupId);
    });
  }

  /** 400 while a payment method is in the group: the methods would point at nothing. */
  delete(contractId: string, paymentMethodGroupId: string): void {
    this.writer.write(() => {
      const current = this.get(contractId, paymentMethodGroupId);
      const users = (this.members.all(contractId, current.payment_method_group_id) as { payment_method_id: number }[]).map((r) => r.payment_method_id);
      if (users.length) {
        const which = users.length === 1 ? `payment method ${users[0]}` : `payment methods ${users.join(', ')}`;
        throw InvalidInput.field(
          'payment_method_group_id',
          `payment method group ${current.payment_method_group_id} is used by ${which}; move them to another group (or set their paymentMethodGroupId to null) first`,
        );
      }
      this.deleteRow(contractId, current);
      this.notify(contractId, 'deleted', this.idOf(current), 'delete');
    });
  }

  /** 6.2: the notice is raised in the change's own transaction (server/events/webhook-events.ts). */
  private notify(contractId: string, action: 'created' | 'edited' | 'deleted', id: string, op: 'insert' | 'update' | 'delete'): void {
    raiseEvent(
      { db: this.db, ids: this.ids, clock: this.clock },
      { contractId, event: PAYMENT_METHOD_GROUP_EVENT, action, payload: { paymentMethodGroupIds: [id] }, cause: { entity: 'payment_method_group', id, op } },
    );
  }

  list(contractId: string, page: Page<keyof typeof SORT_COLUMNS>): PaymentMethodGroupRow[] {
    return this.select(contractId, {}, page);
  }
}
