import { defineKind, L } from '../spec';
import { options } from './common';

const MENU_TYPE = options({ normal: ['通常', 'Normal'], plan: ['放題プラン', 'All-you-can plan'], course: ['コース', 'Course'] });
const TYPE_FILTER = options({ all: ['すべて', 'All'], normal: ['通常', 'Normal'], plan: ['放題プラン', 'All-you-can plan'], course: ['コース', 'Course'] });
const COURSE = options({ standard: ['標準', 'Standard'], simple: ['簡易', 'Simple'] });
const CONDITION = options({ orderable: ['注文可', 'Orderable'], soldout: ['品切れ', 'Sold out'] });

/** Menus of a store (restaurant API, /waiter); a new menu is orderable and not counted. */
export const menus = defineKind({
  kind: 'menus',
  list: '/{contract_id}/waiter/menus',
  item: '/{contract_id}/waiter/menus/{menu_id}',
  idParam: 'menu_id',
  key: 'menuId',
  name: 'menuName',
  create: true,
  update: 'patch',
  remove: true,
  load: 'item',
  columns: ['menuId', 'menuName', 'storeId', 'menuType', 'courseDivision', 'categoryId', 'price', 'condition', 'quantity'],
  form: ['menuName', 'storeId', 'menuType', 'courseDivision', 'categoryId', 'price'],
  createOnly: ['storeId'],
  filters: {
    store_id: { label: L('店舗', 'Store'), ref: 'stores' },
    type: { label: L('種類', 'Type'), options: TYPE_FILTER },
    category_id: { label: L('部門', 'Category'), ref: 'categories' },
  },
  sort: ['menuId', 'categoryId', 'menuName'],
  paging: 'restaurant',
  props: {
    menuId: { label: L('メニューID', 'Menu ID') },
    menuName: { label: L('メニュー名', 'Menu name'), required: true, max: 85 },
    menuType: { label: L('種類', 'Type'), options: MENU_TYPE, required: true },
    courseDivision: { label: L('コース区分', 'Course kind'), options: COURSE, hint: L('コースのみ', 'Courses only') },
    price: { label: L('価格', 'Price'), input: 'decimal', yen: true },
    condition: { label: L('販売状態', 'Condition'), options: CONDITION },
    quantity: { label: L('残数', 'Left') },
  },
  restaurant: true,
  intro: L('販売状態と残数は「メニュー販売条件」で変更します。', 'The condition and the quantity left are set under Menu conditions.'),
});

/** A store's menu conditions (spec 4.6): set with PUT; simple courses are not listed. */
export const menuConditions = defineKind({
  kind: 'menu-conditions',
  list: '/{contract_id}/waiter/menu_conditions/stores/{store_id}',
  item: '/{contract_id}/waiter/menu_conditions/stores/{store_id}/menus/{menu_id}',
  idParam: 'menu_id',
  key: 'menuId',
  name: 'menuId',
  scope: { param: 'store_id', ref: 'stores', label: L('店舗', 'Store') },
  update: 'put',
  load: { listFilter: 'menu_ids' },
  columns: ['menuId', 'condition', 'quantity'],
  form: ['condition', 'quantity'],
  filters: {
    type: { label: L('種類', 'Type'), options: TYPE_FILTER },
    category_id: { label: L('部門', 'Category'), ref: 'categories' },
  },
  sort: ['menu_id', 'category_id'],
  sortColumns: { menu_id: 'menuId' },
  paging: 'restaurant',
  props: {
    menuId: { label: L('メニュー', 'Menu'), ref: 'menus' },
    condition: { label: L('販売状態', 'Condition'), options: CONDITION },
    quantity: { label: L('残数', 'Left'), type: 'number', input: 'number', hint: L('空欄は数えない（制限なし）。0 で品切れ', 'Empty: not counted (no limit). 0 sells out') },
  },
  restaurant: true,
});

const isRule = (v: unknown): v is { condition: string; min: number; max: number } => !!v && typeof v === 'object' && 'condition' in v;
const RULE = options({ all: ['グループ全体', 'Whole group'], category: ['部門ごと', 'Per category'] });

/** Topping groups (spec 2.7, 4.10); the rule is sent whole and cleared when every part is empty. */
export const toppingGroups = defineKind({
  kind: 'topping-groups',
  list: '/{contract_id}/waiter/topping_groups',
  item: '/{contract_id}/waiter/topping_groups/{topping_group_id}',
  idParam: 'topping_group_id',
  key: 'id',
  name: 'name',
  create: true,
  update: 'patch',
  remove: true,
  load: 'item',
  columns: ['id', 'name', 'createdIn', 'rule'],
  form: ['name', 'rule.condition', 'rule.min', 'rule.max'],
  sort: ['id', 'name'],
  paging: 'restaurant',
  props: {
    id: { label: L('ID', 'ID') },
    name: { label: L('グループ名', 'Group name'), required: true, max: 85 },
    createdIn: { label: L('作成元', 'Created in') },
    rule: { label: L('選択ルール', 'Rule'), format: (rule, lang) => (isRule(rule) ? `${RULE[rule.condition]?.[lang] ?? rule.condition} ${rule.min}–${rule.max}` : '') },
    'rule.condition': { label: L('ルールの範囲', 'Rule applies to'), options: RULE, hint: L('空欄はルールなし', 'Empty: no rule') },
    'rule.min': { label: L('最小数', 'Minimum'), type: 'number', input: 'number' },
    'rule.max': { label: L('最大数', 'Maximum'), type: 'number', input: 'number' },
  },
  restaurant: true,
});
