import { defineKind, L } from '../spec';
import { FIVE_PLANS, FLAG, options } from './common';

const USE_STOP = options({ '0': ['使用する', 'In use'], '1': ['使用しない', 'Not in use'] });

/** Terminals (spec 2.11, 4.16): registering is a plan feature of spec 4.16; the API has no delete. */
export const terminals = defineKind({
  kind: 'terminals',
  list: '/{contract_id}/pos/terminals',
  item: '/{contract_id}/pos/terminals/{terminal_id}',
  idParam: 'terminal_id',
  key: 'terminalId',
  name: 'terminalName',
  create: true,
  update: 'patch',
  load: 'item',
  columns: ['terminalId', 'terminalName', 'storeId', 'useStopDivision', 'transactionEditableFlag', 'selfCheckoutAvailableFlag', 'cashDrawerId', 'uuid'],
  form: ['terminalName', 'storeId', 'useStopDivision', 'transactionEditableFlag', 'selfCheckoutAvailableFlag', 'smartIdEngineAvailableFlag', 'cashDrawerId', 'creditTerminalId', 'parentTerminalId', 'uuid'],
  filters: {
    store_id: { label: L('店舗', 'Store'), ref: 'stores' },
    use_stop_division: { label: L('使用', 'Use'), options: USE_STOP },
    uuid: { label: L('端末識別子', 'Device id') },
  },
  sort: ['terminalId', 'storeId', 'terminalName', 'updDateTime'],
  paging: 'pos',
  props: {
    terminalId: { label: L('端末ID', 'Terminal ID') },
    terminalName: { label: L('端末名', 'Terminal name'), required: true, max: 85 },
    useStopDivision: { label: L('使用', 'Use'), options: USE_STOP },
    transactionEditableFlag: { label: L('取引編集', 'Edit sales'), options: FLAG },
    selfCheckoutAvailableFlag: { label: L('セルフレジ', 'Self-checkout'), options: FLAG },
    smartIdEngineAvailableFlag: { label: L('スマートIDエンジン', 'Smart ID engine'), options: FLAG },
    cashDrawerId: { label: L('ドロア', 'Cash drawer'), ref: 'cashDrawers' },
    creditTerminalId: { label: L('決済端末ID', 'Payment terminal ID') },
    parentTerminalId: { label: L('親端末ID', 'Parent terminal ID') },
    uuid: { label: L('端末識別子', 'Device id'), max: 64 },
  },
  plans: { create: FIVE_PLANS },
});

/** Payment methods (spec 2.13): the API has no delete; individual-application methods are registered elsewhere. */
export const paymentMethods = defineKind({
  kind: 'payment-methods',
  list: '/{contract_id}/pos/payment_methods',
  item: '/{contract_id}/pos/payment_methods/{payment_method_id}',
  idParam: 'payment_method_id',
  key: 'paymentMethodId',
  name: 'paymentMethodName',
  create: true,
  update: 'patch',
  load: 'item',
  columns: ['paymentMethodId', 'paymentMethodCode', 'paymentMethodName', 'paymentDivision', 'paymentUnitPrice', 'paymentMethodGroupId', 'paymentChangeFlag', 'displaySequence'],
  form: ['paymentMethodName', 'paymentMethodCode', 'paymentDivision', 'paymentUnitPrice', 'paymentMethodGroupId', 'paymentChangeFlag', 'paymentSecuritiesFlag', 'displaySequence'],
  filters: {
    payment_method_code: { label: L('支払方法コード', 'Code') },
    payment_division: { label: L('支払区分', 'Payment division') },
    payment_method_group_id: { label: L('グループ', 'Group'), ref: 'paymentMethodGroups' },
  },
  sort: ['paymentMethodId', 'paymentMethodCode', 'displaySequence', 'updDateTime'],
  paging: 'pos',
  props: {
    paymentMethodId: { label: L('支払方法ID', 'Method ID') },
    paymentMethodCode: { label: L('支払方法コード', 'Code'), required: true, max: 20, hint: L('半角英数字', 'Letters and digits') },
    paymentMethodName: { label: L('支払方法名', 'Name'), required: true, max: 85 },
    paymentDivision: { label: L('支払区分', 'Payment division'), required: true, hint: L('1〜2桁の数字', '1 or 2 digits') },
    paymentUnitPrice: { label: L('単価', 'Unit price'), input: 'decimal', yen: true, hint: L('金券など、枚数で受け取るとき', 'For vouchers counted in units') },
    paymentMethodGroupId: { label: L('グループ', 'Group'), ref: 'paymentMethodGroups' },
    paymentChangeFlag: { label: L('おつり', 'Change given'), options: FLAG },
    paymentSecuritiesFlag: { label: L('金券', 'Securities'), options: FLAG },
  },
});

/** Payment method groups: deleting is refused while a method is in the group (the API says so). */
export const paymentMethodGroups = defineKind({
  kind: 'payment-method-groups',
  list: '/{contract_id}/pos/payment_method_groups',
  item: '/{contract_id}/pos/payment_method_groups/{payment_method_group_id}',
  idParam: 'payment_method_group_id',
  key: 'paymentMethodGroupId',
  name: 'paymentMethodGroupName',
  create: true,
  update: 'patch',
  remove: true,
  load: 'item',
  columns: ['paymentMethodGroupId', 'paymentMethodGroupName', 'displaySequence', 'updDateTime'],
  form: ['paymentMethodGroupName', 'displaySequence'],
  sort: ['paymentMethodGroupId', 'paymentMethodGroupName', 'displaySequence', 'updDateTime'],
  paging: 'pos',
  props: {
    paymentMethodGroupId: { label: L('グループID', 'Group ID') },
    paymentMethodGroupName: { label: L('グループ名', 'Group name'), required: true, max: 85 },
  },
});
