import { defineKind, L, type Plan } from '../spec';
import { FIVE_PLANS, FLAG, options } from './common';

/** Plans the platform's role pages name for the role list, registration and deletion. */
const PREMIUM_AND_UP: readonly Plan[] = ['premium', 'premium_plus', 'food_business', 'retail_business'];

/**
 * Receipt provisos (領収書但し書き, issue 26): the wording a receipt offers for what was paid;
 * the one marked as the initial value is the receipt's default (at most one is).
 */
export const receiptProvisos = defineKind({
  kind: 'receipt-provisos',
  list: '/{contract_id}/pos/receipt_provisoes',
  item: '/{contract_id}/pos/receipt_provisoes/{receipt_proviso_code}',
  idParam: 'receipt_proviso_code',
  key: 'receiptProvisoCode',
  name: 'receiptProvisoName',
  create: true,
  update: 'patch',
  remove: true,
  load: { listFilter: 'receipt_proviso_code' },
  columns: ['receiptProvisoCode', 'receiptProvisoName', 'initialValueFlag', 'displaySequence', 'displayFlag'],
  form: ['receiptProvisoName', 'initialValueFlag', 'displaySequence', 'displayFlag'],
  filters: {
    initial_value_flag: { label: L('初期値', 'Initial value'), options: FLAG },
    display_flag: { label: L('表示', 'Display'), options: options({ '0': ['表示しない', 'Hidden'], '1': ['表示する', 'Shown'] }) },
  },
  sort: ['receiptProvisoCode', 'displaySequence'],
  paging: 'pos',
  props: {
    receiptProvisoCode: { label: L('但し書きコード', 'Proviso code') },
    receiptProvisoName: { label: L('但し書き', 'Proviso'), required: true, max: 85, hint: L('例: お品代として', 'e.g. お品代として') },
    initialValueFlag: { label: L('初期値', 'Initial value'), options: FLAG, hint: L('「はい」にすると他の但し書きは初期値でなくなります', 'Yes: the other provisos stop being the initial one') },
    displaySequence: { label: L('表示順', 'Display order'), hint: L('1〜999', '1 to 999') },
  },
  plans: { create: FIVE_PLANS, update: FIVE_PLANS, remove: FIVE_PLANS },
});

/**
 * Staff roles (役割・役職, issue 26): their names and notes here; their function controls
 * through the API (PATCH /roles/{role_id}). Role 1 is the administrator and cannot be deleted.
 */
export const roles = defineKind({
  kind: 'roles',
  list: '/{contract_id}/pos/roles',
  item: '/{contract_id}/pos/roles/{role_id}',
  idParam: 'role_id',
  key: 'roleId',
  name: 'roleName',
  create: true,
  update: 'patch',
  remove: true,
  load: 'item',
  columns: ['roleId', 'roleName', 'note', 'updDateTime'],
  form: ['roleName', 'note'],
  sort: ['roleId', 'updDateTime'],
  paging: 'pos',
  props: {
    roleId: { label: L('役割ID', 'Role ID') },
    roleName: { label: L('役割名・役職名', 'Role name'), required: true, max: 30 },
    note: { label: L('説明', 'Note'), input: 'textarea', max: 255 },
  },
  plans: { create: PREMIUM_AND_UP, update: PREMIUM_AND_UP, remove: PREMIUM_AND_UP },
  intro: L(
    '役割ごとの機能制限は API（PATCH /roles/{role_id}）で設定します。役割 1（管理者）は削除できません。',
    'Function controls of a role are set through the API (PATCH /roles/{role_id}). Role 1 (administrator) cannot be deleted.',
  ),
});
