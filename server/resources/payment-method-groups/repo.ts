import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import type { Sqlite } from '../../db/open.js';
import { selectPage, updateRow } from '../../db/sql.js';
import type { Writer } from '../../db/write.js';
import { BadRequest, NotFound } from '../../http/problem.js';
import type { Page } from '../../http/paging.js';
import { sequenceValue, type CreatePaymentMethodGroup, type UpdatePaymentMethodGroup } from './schema.js';
import { PAYMENT_METHOD_GROUP_EVENT, raiseEvent } from '../../../sync/webhooks/events.js';

export interface PaymentMethodGroupRow {
  contract_id: string;
  payment_method_group_id: number;
  payment_method_group_name: string;
  display_sequence: number | null;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = { paymentMethodGroupName: 'payment_method_group_name', displaySequence: 'display_sequence' };
const GROUPS = { table: 'payment_method_groups', key: 'payment_method_group_id' };
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
export class PaymentMethodGroupRepo {
  private readonly byId;
  private readonly insert;
  private readonly remove;
  private readonly members;

  constructor(
    private readonly db: Sqlite,
    private readonly writer: Writer,
    private readonly ids: IdAllocator,
    private readonly clock: Clock,
  ) {
    this.byId = db.prepare('SELECT * FROM payment_method_groups WHERE contract_id = ? AND payment_method_group_id = ?');
    this.insert = db.prepare(
      `INSERT INTO payment_method_groups (contract_id, payment_method_group_id, payment_method_group_name, display_sequence, ins_at, upd_at)
       VALUES (@contractId, @paymentMethodGroupId, @paymentMethodGroupName, @displaySequence, @now, @now)`,
    );
    this.remove = db.prepare('DELETE FROM payment_method_groups WHERE contract_id = ? AND payment_method_group_id = ?');
    this.members = db.prepare(
      'SELECT payment_method_id FROM payment_methods WHERE contract_id = ? AND payment_method_group_id = ? ORDER BY payment_method_id',
    );
  }

  find(contractId: string, paymentMethodGroupId: string | number): PaymentMethodGroupRow | undefined {
    return this.byId.get(contractId, paymentMethodGroupId) as PaymentMethodGroupRow | undefined;
  }

  get(contractId: string, paymentMethodGroupId: string): PaymentMethodGroupRow {
    const row = this.find(contractId, paymentMethodGroupId);
    if (!row) throw NotFound.field('payment_method_group_id', `payment method group ${paymentMethodGroupId} does not exist`);
    return row;
  }

  /** The group named in a body (400 `[field]` when it does not exist). */
  referenced(contractId: string, paymentMethodGroupId: string, field = 'paymentMethodGroupId'): PaymentMethodGroupRow {
    const row = this.find(contractId, paymentMethodGroupId);
    if (!row) throw BadRequest.field(field, `payment method group ${paymentMethodGroupId} does not exist`);
    return row;
  }

  create(contractId: string, input: CreatePaymentMethodGroup): PaymentMethodGroupRow {
    return this.writer.write(() => {
      const paymentMethodGroupId = this.ids.next('payment_method_groups');
      this.insert.run({
        contractId,
        paymentMethodGroupId,
        paymentMethodGroupName: input.paymentMethodGroupName,
        displaySequence: sequenceValue(input.displaySequence) ?? null,
        now: this.clock.now().getTime(),
      });
      this.writer.changed({ contractId, entity: 'payment_method_group', id: paymentMethodGroupId, op: 'insert' });
      this.notify(contractId, 'created', paymentMethodGroupId, 'insert');
      return this.get(contractId, paymentMethodGroupId);
    });
  }

  update(contractId: string, paymentMethodGroupId: string, patch: UpdatePaymentMethodGroup): PaymentMethodGroupRow {
    return this.writer.write(() => {
      const current = this.get(contractId, paymentMethodGroupId);
      const values = { ...patch, displaySequence: sequenceValue(patch.displaySequence) };
      if (updateRow(this.db, GROUPS, contractId, current.payment_method_group_id, values, COLUMNS, this.clock.now().getTime())) {
        this.writer.changed({ contractId, entity: 'payment_method_group', id: String(current.payment_method_group_id), op: 'update' });
        this.notify(contractId, 'edited', String(current.payment_method_group_id), 'update');
      }
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
        throw BadRequest.field(
          'payment_method_group_id',
          `payment method group ${current.payment_method_group_id} is used by ${which}; move them to another group (or set their paymentMethodGroupId to null) first`,
        );
      }
      this.remove.run(contractId, current.payment_method_group_id);
      this.writer.changed({ contractId, entity: 'payment_method_group', id: String(current.payment_method_group_id), op: 'delete' });
      this.notify(contractId, 'deleted', String(current.payment_method_group_id), 'delete');
    });
  }

  /** 6.2: the notice is raised in the change's own transaction (sync/webhooks/events.ts). */
  private notify(contractId: string, action: 'created' | 'edited' | 'deleted', id: string, op: 'insert' | 'update' | 'delete'): void {
    raiseEvent(
      { db: this.db, ids: this.ids, clock: this.clock },
      { contractId, event: PAYMENT_METHOD_GROUP_EVENT, action, payload: { paymentMethodGroupIds: [id] }, cause: { entity: 'payment_method_group', id, op } },
    );
  }

  list(contractId: string, page: Page<keyof typeof SORT_COLUMNS>): PaymentMethodGroupRow[] {
    return selectPage<PaymentMethodGroupRow, keyof typeof SORT_COLUMNS>(this.db, GROUPS, contractId, {}, page, SORT_COLUMNS);
  }
}
