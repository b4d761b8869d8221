import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { formatDecimal } from '../../domain/money.js';
import { InvalidInput } from '../../domain/errors.js';
import type { Page } from '../../platform/http/paging.js';
import { PaymentMethodGroupRepo } from '../payment-method-groups/repo.js';
import { sequenceValue } from '../payment-method-groups/schema.js';
import type { CreatePaymentMethod, ListPaymentMethodsQuery, UpdatePaymentMethod } from './schema.js';

export interface PaymentMethodRow {
  contract_id: string;
  payment_method_id: number;
  payment_method_code: string;
  payment_method_name: string;
  payment_division: string;
  /** Decimal text in its shortest form; null: no unit price. */
  payment_unit_price: string | null;
  payment_change_flag: '0' | '1';
  payment_securities_flag: '0' | '1';
  /** '1': registered by the individual-application payment method registration operation. */
  individual_application: '0' | '1';
  payment_method_group_id: number | null;
  display_sequence: number | null;
  ins_at: number;
  upd_at: number;
}

const COLUMNS = {
  paymentMethodCode: 'payment_method_code',
  paymentMethodName: 'payment_method_name',
  paymentDivision: 'payment_division',
  paymentUnitPrice: 'payment_unit_price',
  paymentChangeFlag: 'payment_change_flag',
  paymentSecuritiesFlag: 'payment_securities_flag',
  paymentMethodGroupId: 'payment_method_group_id',
  displaySequence: 'display_sequence',
};
const SORT_COLUMNS = {
  paymentMethodId: 'payment_method_id',
  paymentMethodCode: 'payment_method_code',
  displaySequence: 'display_sequence',
  updDateTime: 'upd_at',
};

const unitPriceText = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : formatDecimal(v));

export class PaymentMethodRepo extends MasterRepo<PaymentMethodRow, keyof typeof SORT_COLUMNS> {
  private readonly byCode;
  private readonly groups;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'payment_method', columns: COLUMNS, sort: SORT_COLUMNS });
    this.groups = new PaymentMethodGroupRepo(db, writer, ids, clock);
    this.byCode = db.prepare('SELECT payment_method_id FROM payment_methods WHERE contract_id = ? AND payment_method_code = ?');
  }

  /**
   * `individualApplication` '1' is the individual-application payment method registration
   * operation; the normal registration gives '0'. The flag never changes afterwards.
   */
  create(contractId: string, input: CreatePaymentMethod, individualApplication: '0' | '1' = '0'): PaymentMethodRow {
    return this.writer.write(() => {
      this.assertCodeFree(contractId, input.paymentMethodCode, null);
      const groupId = this.assertGroup(contractId, input.paymentMethodGroupId);
      const id = this.insertRow(contractId, {
        payment_method_id: this.ids.next('payment_methods'),
        payment_method_code: input.paymentMethodCode,
        payment_method_name: input.paymentMethodName,
        payment_division: input.paymentDivision,
        payment_unit_price: unitPriceText(input.paymentUnitPrice) ?? null,
        payment_change_flag: input.paymentChangeFlag ?? '0',
        payment_securities_flag: input.paymentSecuritiesFlag ?? '0',
        individual_application: individualApplication,
        payment_method_group_id: groupId ?? null,
        display_sequence: sequenceValue(input.displaySequence) ?? null,
      });
      return this.get(contractId, id);
    });
  }

  /** The path target first (404), then the code and group in the body (400); a refused PATCH writes nothing. */
  update(contractId: string, paymentMethodId: string, patch: UpdatePaymentMethod): PaymentMethodRow {
    return this.writer.write(() => {
      const current = this.get(contractId, paymentMethodId);
      if (patch.paymentMethodCode !== undefined) this.assertCodeFree(contractId, patch.paymentMethodCode, current.payment_method_id);
      const values = {
        ...patch,
        paymentMethodGroupId: this.assertGroup(contractId, patch.paymentMethodGroupId),
        paymentUnitPrice: unitPriceText(patch.paymentUnitPrice),
        displaySequence: sequenceValue(patch.displaySequence),
      };
      this.updateFields(contractId, current, values);
      return this.get(contractId, paymentMethodId);
    });
  }

  list(contractId: string, query: ListPaymentMethodsQuery, page: Page<keyof typeof SORT_COLUMNS>): PaymentMethodRow[] {
    const filters = {
      payment_method_code: query.payment_method_code,
      payment_division: query.payment_division,
      payment_method_group_id: query.payment_method_group_id === undefined ? undefined : Number(query.payment_method_group_id),
      individual_application: query.individual_application_flag,
    };
    return this.select(contractId, filters, page);
  }

  private assertCodeFree(contractId: string, code: string, selfId: number | null): void {
    const other = this.byCode.get(contractId, code) as { payment_method_id: number } | undefined;
    if (other && other.payment_method_id !== selfId) {
      throw InvalidInput.field('paymentMethodCode', `payment method code ${code} is already used by payment method ${other.payment_method_id}`);
    }
  }

  /** The group id to store (undefined: not sent, null: none); 400 when it does not exist. */
  private assertGroup(contractId: string, groupId: string | null | undefined): number | null | undefined {
    if (groupId === undefined || groupId === null) return groupId;
    return this.groups.referenced(contractId, groupId).payment_method_group_id;
  }
}
