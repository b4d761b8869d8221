import { defineKind, L } from '../spec';
import { FIVE_PLANS, options } from './common';

const COUPON_DIVISION = options({ '1': ['値引（円）', 'Amount off (yen)'], '2': ['割引（%）', 'Rate off (%)'] });

/**
 * Coupons (issue 26): a discount or a rate, valid from the start to the end date; sales name
 * them in their coupon lines. Their items (conditions, goods granted) are kept through the API.
 */
export const coupons = defineKind({
  kind: 'coupons',
  list: '/{contract_id}/pos/coupons',
  item: '/{contract_id}/pos/coupons/{coupon_id}',
  idParam: 'coupon_id',
  key: 'couponId',
  name: 'couponName',
  create: true,
  update: 'patch',
  remove: true,
  load: 'item',
  columns: ['couponId', 'couponName', 'couponDivision', 'couponValue', 'startDate', 'endDate', 'updDateTime'],
  form: ['couponName', 'couponDivision', 'couponValue', 'startDate', 'endDate'],
  filters: { coupon_division: { label: L('区分', 'Kind'), options: COUPON_DIVISION } },
  sort: ['couponId', 'couponName', 'startDate', 'endDate', 'updDateTime'],
  paging: 'pos',
  props: {
    couponId: { label: L('クーポンID', 'Coupon ID') },
    couponName: { label: L('クーポン名', 'Coupon name'), required: true, max: 85 },
    couponDivision: { label: L('区分', 'Kind'), options: COUPON_DIVISION, required: true },
    couponValue: { label: L('値引額・割引率', 'Amount or rate'), input: 'decimal', required: true, hint: L('値引は円、割引は % (100 まで)', 'Yen for an amount, % (up to 100) for a rate') },
    startDate: { label: L('開始日', 'First day'), input: 'date', hint: L('空欄は開始日なし', 'Empty: no first day') },
    endDate: { label: L('終了日', 'Last day'), input: 'date', hint: L('空欄は終了日なし', 'Empty: no last day') },
  },
  plans: { create: FIVE_PLANS, update: FIVE_PLANS, remove: FIVE_PLANS },
  intro: L(
    '会計のクーポン行は、ここに登録したクーポンの名前と特典を引き継ぎます。有効期間外の日の会計には使えません。',
    'A sale’s coupon lines take the name and benefit of the coupon registered here; it cannot be used on a day outside its period.',
  ),
});
