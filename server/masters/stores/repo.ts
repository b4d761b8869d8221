import type { Clock } from '../../clock.js';
import type { IdAllocator } from '../../db/ids.js';
import { MasterRepo } from '../../db/master-repo.js';
import type { Sqlite } from '../../db/open.js';
import type { Writer } from '../../db/write.js';
import { InvalidInput, NotFoundError } from '../../domain/errors.js';
import type { Page, UpdRange } from '../../platform/http/paging.js';
import { createStoreBody, type CreateStore, type ListStoresQuery, type StoreInput, type UpdateStore } from './schema.js';

type Flag = '0' | '1';

export interface StoreRow {
  contract_id: string;
  store_id: number;
  store_name: string;
  store_code: string | null;
  /** The platform's storeDivision: '1' normal store, '2' warehouse. */
  division: '1' | '2';
  pause_flag: Flag;
  /** '1' an order-receiving store (the platform's order-shipment store): not served by /stores, never closed daily. */
  order_receiving: Flag;
  point_giving_division: '1' | '2' | '3' | '4';
  point_giving_unit_price: string;
  point_giving_unit: string;
  point_spend_division: '1' | '2';
  mileage_division: '0' | '1' | '2';
  mileage_label: string | null;
  closing_method: Flag;
  closing_time: string;
  bank_deposit_auto_input: Flag;
  bank_deposit_auto_input_amount: string;
  cash_input_at_settlement: Flag;
  cash_drawer_division: Flag;
  store_abbr: string | null;
  print_receipt_store_name: string | null;
  print_stock_receipt_store_name: string | null;
  post_code: string | null;
  address: string | null;
  phone_number: string | null;
  fax_number: string | null;
  mail_address: string | null;
  homepage: string | null;
  temp_tran_mail_address: string | null;
  price_change_flag: Flag;
  sell_division: Flag;
  sum_ref_column: Flag;
  point_not_applicable: Flag;
  tax_free_division: '0' | '1' | '2';
  max_bundle_product_count: number;
  max_discount_rate: string | null;
  carriage_display_flag: Flag;
  terminal_check_cash_flag: Flag;
  waiter_adjustment_division: Flag;
  cancel_setting_division: '1' | '2' | '3';
  rounding_division: '00' | '11' | '12' | '13' | '21' | '22' | '23' | '31' | '32' | '33' | '41' | '42' | '43' | '99';
  card_company_select_division: Flag;
  gift_receipt_valid_days: number | null;
  tax_label_normal: string | null;
  tax_label_reduce: string | null;
  display_sequence: number | null;
  face_payment_use_division: Flag;
  invoice_registration_no: string | null;
  point_use_division: Flag;
  spend_rate: string;
  point_use_unit: number | null;
  point_spend_limit_division: '0' | '1' | '2';
  expire_division: '0' | '1' | '2' | '3';
  expire_limit: number | null;
  mileage_limit: number | null;
  receipt_header: string | null;
  receipt_footer: string | null;
  receipt_tax_office_stamp_comment: string | null;
  tax_office_name: string | null;
  discount_receipt_header: string | null;
  discount_receipt_footer: string | null;
  /** From the contract (view store_reads): the discount rounding the platform shows on the store. */
  contract_discount_rounding_division: '0' | '1' | '2';
  ins_at: number;
  upd_at: number;
}

/** Field key of a StoreWrite value → its column (fixed text: client keys never reach SQL). */
const COLUMNS: Record<string, string> = {
  storeName: 'store_name',
  storeCode: 'store_code',
  pauseFlag: 'pause_flag',
  pointGivingDivision: 'point_giving_division',
  pointGivingUnitPrice: 'point_giving_unit_price',
  pointGivingUnit: 'point_giving_unit',
  pointSpendDivision: 'point_spend_division',
  mileageDivision: 'mileage_division',
  mileageLabel: 'mileage_label',
  closingMethod: 'closing_method',
  closingTime: 'closing_time',
  bankDepositAutoInput: 'bank_deposit_auto_input',
  bankDepositAutoInputAmount: 'bank_deposit_auto_input_amount',
  cashInputAtSettlement: 'cash_input_at_settlement',
  cashDrawerDivision: 'cash_drawer_division',
  storeAbbr: 'store_abbr',
  printReceiptStoreName: 'print_receipt_store_name',
  printStockReceiptStoreName: 'print_stock_receipt_store_name',
  postCode: 'post_code',
  address: 'address',
  phoneNumber: 'phone_number',
  faxNumber: 'fax_number',
  mailAddress: 'mail_address',
  homepage: 'homepage',
  tempTranMailAddress: 'temp_tran_mail_address',
  priceChangeFlag: 'price_change_flag',
  sellDivision: 'sell_division',
  sumRefColumn: 'sum_ref_column',
  pointNotApplicable: 'point_not_applicable',
  taxFreeDivision: 'tax_free_division',
  maxBundleProductCount: 'max_bundle_product_count',
  maxDiscountRate: 'max_discount_rate',
  carriageDisplayFlag: 'carriage_display_flag',
  terminalCheckCashFlag: 'terminal_check_cash_flag',
  waiterAdjustmentDivision: 'waiter_adjustment_division',
  cancelSettingDivision: 'cancel_setting_division',
  roundingDivision: 'rounding_division',
  cardCompanySelectDivision: 'card_company_select_division',
  giftReceiptValidDays: 'gift_receipt_valid_days',
  taxLabelNormal: 'tax_label_normal',
  taxLabelReduce: 'tax_label_reduce',
  displaySequence: 'display_sequence',
  facePaymentUseDivision: 'face_payment_use_division',
  invoiceRegistrationNo: 'invoice_registration_no',
  pointUseDivision: 'point_use_division',
  spendRate: 'spend_rate',
  pointUseUnit: 'point_use_unit',
  pointSpendLimitDivision: 'point_spend_limit_division',
  expireDivision: 'expire_division',
  expireLimit: 'expire_limit',
  mileageLimit: 'mileage_limit',
  receiptHeader: 'receipt_header',
  receiptFooter: 'receipt_footer',
  receiptTaxOfficeStampComment: 'receipt_tax_office_stamp_comment',
  taxOfficeName: 'tax_office_name',
  discountReceiptHeader: 'discount_receipt_header',
  discountReceiptFooter: 'discount_receipt_footer',
};
const SORT_COLUMNS = {
  storeId: 'store_id',
  storeCode: 'store_code',
  storeName: 'store_name',
  division: 'division',
};

export class StoreRepo extends MasterRepo<StoreRow, keyof typeof SORT_COLUMNS> {
  private readonly byCode;

  constructor(db: Sqlite, writer: Writer, private readonly ids: IdAllocator, clock: Clock) {
    super(db, writer, clock, { entity: 'store', columns: COLUMNS, sort: SORT_COLUMNS, readFrom: 'store_reads' });
    this.byCode = db.prepare('SELECT store_id FROM stores WHERE contract_id = ? AND store_code = ?');
  }

  findByCode(contractId: string, code: string): StoreRow | undefined {
    const hit = this.byCode.get(contractId, code) as { store_id: number } | undefined;
    return hit && this.find(contractId, String(hit.store_id));
  }

  /**
   * The store a record in a body names (`field`): it must exist (400), and where the
   * operation needs a trading store (`open`), not be suspended (pause_flag '1', 400).
   */
  referenced(contractId: string, storeId: string, { field = 'storeId', open = false } = {}): StoreRow {
    const store = this.find(contractId, storeId);
    if (!store) throw InvalidInput.field(field, `store ${storeId} does not exist`);
    if (open && store.pause_flag === '1') throw InvalidInput.field(field, `store ${storeId} is suspended`);
    return store;
  }

  /** A store as /stores serves it: a normal store or a warehouse (an order-receiving store is a 404 there). */
  getPos(contractId: string, storeId: string): StoreRow {
    const row = this.get(contractId, storeId);
    if (row.order_receiving === '1') {
      throw NotFoundError.field('store_id', `store ${storeId} is an order-receiving store, which the order-shipment API serves`);
    }
    return row;
  }

  /**
   * A store from a POST body; `orderReceiving` registers an order-receiving store (the
   * order-shipment side, never a /stores body). Settings not given keep the column defaults.
   * Seeds and tools may pass the body as a client sends it (StoreInput).
   */
  create(contractId: string, body: CreateStore | StoreInput, { orderReceiving = false } = {}): StoreRow {
    const input = 'values' in body ? body : createStoreBody.parse(body);
    return this.writer.write(() => {
      for (const [key, field] of [
        ['pointConditionStoreId', 'pointCondition.storeId'],
        ['receiptPrintInfoStoreId', 'receiptPrintInfo.storeId'],
      ] as const) {
        if (input.echo[key] !== undefined) throw InvalidInput.field(field, 'is read-only: a store has no id before it is registered');
      }
      const values = input.values;
      this.assertCodeFree(contractId, (values.storeCode as string | null | undefined) ?? null, null);
      // The settings sent, by column; those not sent keep the column defaults.
      const settings = Object.entries(values).filter(([key, value]) => value !== undefined && COLUMNS[key]);
      const storeId = this.insertRow(contractId, {
        store_id: this.ids.next('stores'),
        store_name: input.storeName,
        division: input.echo.division ?? '1',
        order_receiving: orderReceiving ? '1' : '0',
        ...Object.fromEntries(settings.map(([key, value]) => [COLUMNS[key], value])),
      });
      const row = this.get(contractId, storeId);
      assertPointExpiry(row);
      return row;
    });
  }

  /**
   * PATCH: only the keys sent change. Keys a read-modify-write client sends back unchanged are
   * accepted (storeId, division, discountRoundingDivision, the objects' storeId); changing them
   * is a 400. The path target first (404), then the body (400); a refused PATCH writes nothing.
   */
  update(contractId: string, storeId: string, patch: UpdateStore): StoreRow {
    return this.writer.write(() => {
      const current = this.getPos(contractId, storeId);
      const id = String(current.store_id);
      const { echo, values } = patch;
      for (const [key, field] of [
        ['storeId', 'storeId'],
        ['pointConditionStoreId', 'pointCondition.storeId'],
        ['receiptPrintInfoStoreId', 'receiptPrintInfo.storeId'],
      ] as const) {
        if (echo[key] !== undefined && Number(echo[key]) !== current.store_id) throw InvalidInput.field(field, `is read-only: this is store ${id}`);
      }
      if (echo.division !== undefined && echo.division !== current.division) {
        throw InvalidInput.field('division', `cannot be changed after registration (store ${id} is ${current.division === '1' ? '1, a normal store' : '2, a warehouse'})`);
      }
      if (echo.discountRoundingDivision !== undefined && echo.discountRoundingDivision !== current.contract_discount_rounding_division) {
        throw InvalidInput.field(
          'discountRoundingDivision',
          `is the contract's setting (${current.contract_discount_rounding_division}), changed with \`contract set --discount-rounding\`, not per store`,
        );
      }
      if (values.storeCode !== undefined) this.assertCodeFree(contractId, values.storeCode as string | null, id);
      if (this.updateFields(contractId, current, values)) assertPointExpiry(this.get(contractId, id));
      return this.get(contractId, id);
    });
  }

  /** The stores /stores lists: normal stores and warehouses. */
  list(contractId: string, query: ListStoresQuery, page: Page<keyof typeof SORT_COLUMNS> & UpdRange): StoreRow[] {
    const filters = { store_code: query.store_code, division: query.division, pause_flag: query.pause_flag, order_receiving: '0' };
    return this.select(contractId, filters, page);
  }

  private assertCodeFree(contractId: string, code: string | null, selfId: string | null): void {
    if (code === null) return;
    const other = this.findByCode(contractId, code);
    if (other && String(other.store_id) !== selfId) {
      throw InvalidInput.field('storeCode', `store code ${code} is already used by store ${other.store_id}`);
    }
  }
}

/** The platform refuses an expiry period without its unit ("0 none" with an expireLimit). */
function assertPointExpiry(row: StoreRow): void {
  if (row.expire_limit !== null && row.expire_division === '0') {
    throw InvalidInput.field('pointCondition.expireDivision', `must not be 0 (none) while pointCondition.expireLimit is ${row.expire_limit}; send 1 days, 2 months or 3 years`);
  }
}
