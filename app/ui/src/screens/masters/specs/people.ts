import { defineKind, L } from '../spec';
import { StaffRightsNote } from '../StaffRightsNote';
import { DISPLAY_FLAG, options } from './common';

/** Customer groups (spec 2.2), filed under the sections 1 to 5; the API has no delete. */
export const customerGroups = defineKind({
  kind: 'customer-groups',
  list: '/{contract_id}/pos/customer_groups',
  item: '/{contract_id}/pos/customer_groups/{customer_group_id}',
  idParam: 'customer_group_id',
  key: 'customerGroupId',
  name: 'label',
  create: true,
  update: 'patch',
  load: 'item',
  columns: ['customerGroupId', 'customerGroupSectionId', 'label', 'displaySequence', 'displayFlag'],
  form: ['label', 'customerGroupSectionId', 'displaySequence', 'displayFlag'],
  filters: {
    customer_group_section_id: { label: L('客層区分', 'Section'), ref: 'customerGroupSections' },
    display_flag: { label: L('表示', 'Display'), options: DISPLAY_FLAG },
  },
  sort: ['customerGroupId', 'customerGroupSectionId', 'displaySequence'],
  paging: 'pos',
  props: {
    customerGroupId: { label: L('客層ID', 'Group ID') },
    customerGroupSectionId: { label: L('客層区分', 'Section'), ref: 'customerGroupSections', required: true },
    label: { label: L('客層名', 'Label'), required: true, max: 85 },
  },
});

const GENDER = options({ '0': ['男性', 'Male'], '1': ['女性', 'Female'], '9': ['未選択', 'Unselected'] });
const DASHBOARD = options({ '0': ['スタッフトップ', 'Staff top'], '1': ['管理者トップ', 'Administrator top'] });
const bool = (ja: string, en: string) => ({ label: L(ja, en), input: 'checkbox', type: 'boolean' }) as const;
const date = (ja: string, en: string) => ({ label: L(ja, en), input: 'date' }) as const;

/**
 * Staff (spec 2.3, 4.4). Updating is a plan feature of spec 4.4 (standard, premium, premium
 * plus, enterprise); the API has no delete. Rights and passwords are set by the CLI only.
 */
export const staffs = defineKind({
  kind: 'staffs',
  list: '/{contract_id}/pos/staffs',
  item: '/{contract_id}/pos/staffs/{staff_id}',
  idParam: 'staff_id',
  key: 'staffId',
  name: 'staffName',
  create: true,
  update: 'patch',
  load: 'item',
  columns: ['staffId', 'staffCode', 'staffName', 'staffKana', 'gender', 'roleInEmployeeList', 'hireDate', 'adminFlag'],
  form: [
    'staffName', 'staffKana', 'staffCode', 'gender', 'birthday', 'phone', 'postCode', 'address',
    'hireDate', 'terminationDate', 'terminationReason', 'roleInEmployeeList', 'employeeClassificationId', 'passCode',
    'displaySequence', 'dashboardType', 'adminFlag', 'foreignerFlag', 'stampScreenDisplayFlag', 'personalWebStampScreenDisplayFlag',
    'career', 'memo', 'adminMemo',
  ],
  filters: {
    staff_code: { label: L('スタッフコード', 'Staff code') },
    gender: { label: L('性別', 'Gender'), options: GENDER },
  },
  sort: ['staffId', 'staffCode', 'staffKana', 'displaySequence', 'hireDate'],
  paging: 'pos',
  props: {
    staffId: { label: L('スタッフID', 'Staff ID') },
    staffName: { label: L('氏名', 'Name'), required: true, max: 50 },
    staffKana: { label: L('フリガナ', 'Reading (katakana)'), max: 50, hint: L('全角カタカナ', 'Full-width katakana') },
    staffCode: { label: L('スタッフコード', 'Staff code'), max: 20, hint: L('ログインのユーザー名', 'The login username') },
    gender: { label: L('性別', 'Gender'), options: GENDER },
    birthday: date('生年月日', 'Birthday'),
    phone: { label: L('電話番号', 'Phone'), max: 20 },
    postCode: { label: L('郵便番号', 'Post code'), max: 10 },
    address: { label: L('住所', 'Address'), max: 255 },
    hireDate: date('入社日', 'Hired'),
    terminationDate: date('退職日', 'Left'),
    terminationReason: { label: L('退職理由', 'Reason for leaving'), max: 255 },
    roleInEmployeeList: { label: L('役職', 'Role'), max: 85 },
    employeeClassificationId: { label: L('雇用区分ID', 'Employment class ID') },
    passCode: { label: L('打刻パスコード', 'Clock-in passcode'), hint: L('半角数字4桁', '4 digits') },
    displaySequence: { label: L('表示順', 'Display order'), type: 'number' },
    dashboardType: { label: L('ログイン後の画面', 'Screen after login'), options: DASHBOARD, type: 'number' },
    adminFlag: bool('管理者権限', 'Administrator'),
    foreignerFlag: bool('外国籍', 'Foreign national'),
    stampScreenDisplayFlag: bool('打刻画面に表示', 'On the clock-in screen'),
    personalWebStampScreenDisplayFlag: bool('個人Web打刻に表示', 'On personal web clock-in'),
    career: { label: L('経歴', 'Career'), input: 'textarea', max: 1000 },
    memo: { label: L('メモ', 'Memo'), input: 'textarea', max: 1000 },
    adminMemo: { label: L('管理者メモ', 'Admin memo'), input: 'textarea', max: 1000 },
  },
  plans: { update: ['standard', 'premium', 'premium_plus', 'enterprise'] },
  note: StaffRightsNote,
});

const USE_PRODUCT_RATE = options({ '0': ['使わない', 'Not used'], '1': ['使う', 'Used'] });
const SELLING_PRICE = options({ '0': ['セール価格×社割率', 'Sale price × staff rate'], '1': ['安い方', 'The cheaper'], '2': ['高い方', 'The dearer'] });

/** Staff ranks (spec 2.6, 4.8), keyed by their code; updating is a plan feature of spec 4.8; no delete. */
export const staffRanks = defineKind({
  kind: 'staff-ranks',
  list: '/{contract_id}/pos/staff_ranks',
  item: '/{contract_id}/pos/staff_ranks/{staff_rank}',
  idParam: 'staff_rank',
  key: 'staffRank',
  name: 'staffRankFullName',
  create: true,
  update: 'patch',
  load: 'item',
  columns: ['staffRank', 'staffRankFullName', 'staffRankDisplayName', 'staffDiscountRate', 'displaySequence', 'displayFlag'],
  form: ['staffRank', 'staffRankFullName', 'staffRankDisplayName', 'staffDiscountRate', 'useProductStaffDiscountRateDivision', 'staffApplicationSellingPriceDivision', 'displaySequence', 'displayFlag'],
  createOnly: ['staffRank'],
  filters: { display_flag: { label: L('有効', 'Valid'), options: options({ '0': ['無効', 'Invalid'], '1': ['有効', 'Valid'] }) } },
  sort: ['staffRank', 'displaySequence'],
  paging: 'pos',
  props: {
    staffRank: { label: L('ランクコード', 'Rank code'), required: true, max: 20 },
    staffRankFullName: { label: L('ランク名', 'Full name'), required: true, max: 85 },
    staffRankDisplayName: { label: L('表示名', 'Display name'), max: 85, hint: L('空欄はランク名', 'Empty: the full name') },
    staffDiscountRate: { label: L('社割率（%）', 'Staff discount (%)'), input: 'decimal' },
    useProductStaffDiscountRateDivision: { label: L('商品の社割率', "Products' staff rate"), options: USE_PRODUCT_RATE },
    staffApplicationSellingPriceDivision: { label: L('セール中の社割価格', 'Staff price during a sale'), options: SELLING_PRICE },
    displayFlag: { label: L('有効', 'Valid'), options: options({ '0': ['無効', 'Invalid'], '1': ['有効', 'Valid'] }) },
  },
  plans: { update: ['premium_plus', 'food_business', 'retail_business'] },
});
