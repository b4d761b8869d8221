import { defineKind, L } from '../spec';
import { DISPLAY_FLAG, FIVE_PLANS, options } from './common';

const LEVEL = options({ '1': ['第1階層', 'Level 1'], '2': ['第2階層', 'Level 2'], '3': ['第3階層', 'Level 3'] });

/** Categories (spec 2.1): a tree of up to three levels; a category with children cannot be deleted. */
export const categories = defineKind({
  kind: 'categories',
  list: '/{contract_id}/pos/categories',
  item: '/{contract_id}/pos/categories/{category_id}',
  idParam: 'category_id',
  key: 'categoryId',
  name: 'categoryName',
  create: true,
  update: 'patch',
  remove: true,
  load: 'item',
  columns: ['categoryId', 'categoryCode', 'categoryName', 'level', 'parentCategoryId', 'displaySequence', 'displayFlag', 'taxDivision'],
  form: ['categoryName', 'categoryCode', 'categoryAbbr', 'parentCategoryId', 'displaySequence', 'displayFlag', 'taxDivision', 'reduceTaxId', 'pointNotApplicable', 'taxFreeDivision', 'color', 'tag'],
  filters: {
    category_code: { label: L('部門コード', 'Category code') },
    level: { label: L('階層', 'Level'), options: LEVEL },
    parent_category_id: { label: L('親部門', 'Parent category'), ref: 'categories' },
    display_flag: { label: L('表示', 'Display'), options: DISPLAY_FLAG },
  },
  sort: ['categoryId', 'categoryCode', 'displaySequence', 'level', 'updDateTime'],
  paging: 'pos',
  props: {
    categoryId: { label: L('部門ID', 'Category ID') },
    categoryCode: { label: L('部門コード', 'Category code'), max: 20 },
    categoryName: { label: L('部門名', 'Category name'), required: true, max: 85 },
    categoryAbbr: { label: L('略称', 'Abbreviation'), max: 85 },
    parentCategoryId: { label: L('親部門', 'Parent category'), ref: 'categories', hint: L('階層は親から決まります（3階層まで）', 'The level follows the parent (up to 3)') },
    level: { label: L('階層', 'Level'), options: LEVEL },
    color: { label: L('色', 'Colour'), hint: L('#FF8800 の形式', 'Like #FF8800') },
    tag: { label: L('タグ', 'Tags'), max: 85, hint: L('カンマ区切り', 'Comma separated') },
  },
});

const PRODUCT_DIVISION = options({
  '0': ['通常', 'Normal'],
  '1': ['回数券', 'Ticket'],
  '2': ['オプション', 'Option'],
  '3': ['部門売り', 'Department sale'],
  '4': ['バンドル親', 'Bundle parent'],
  '5': ['セット販売親', 'Set-sale parent'],
  '6': ['簡易バンドル親', 'Simple bundle parent'],
  '7': ['バンドル子', 'Bundle child'],
  '8': ['バンドル値引子', 'Bundle discount child'],
});

/** Products (spec 2.2) with their free-item values; the store handling (`stores`) is kept as it is by this form. */
export const products = defineKind({
  kind: 'products',
  list: '/{contract_id}/pos/products',
  item: '/{contract_id}/pos/products/{product_id}',
  idParam: 'product_id',
  key: 'productId',
  name: 'productName',
  create: true,
  update: 'patch',
  remove: true,
  load: 'item',
  columns: ['productId', 'productCode', 'productName', 'categoryId', 'price', 'cost', 'taxDivision', 'productDivision'],
  form: ['productName', 'productCode', 'categoryId', 'price', 'cost', 'taxDivision', 'reduceTaxId', 'pointNotApplicable', 'taxFreeDivision', 'productDivision', 'reserveItems'],
  filters: {
    product_code: { label: L('商品コード', 'Product code') },
    category_id: { label: L('部門', 'Category'), ref: 'categories' },
    product_division: { label: L('商品区分', 'Product division'), options: PRODUCT_DIVISION },
  },
  sort: ['productId', 'productCode', 'price', 'categoryId', 'updDateTime'],
  paging: 'pos',
  props: {
    productId: { label: L('商品ID', 'Product ID') },
    productCode: { label: L('商品コード', 'Product code'), required: true, max: 20 },
    productName: { label: L('商品名', 'Product name'), required: true, max: 85 },
    categoryId: { label: L('部門', 'Category'), ref: 'categories', required: true },
    price: { label: L('売価', 'Price'), input: 'decimal', yen: true, required: true },
    cost: { label: L('原価', 'Cost'), input: 'decimal', yen: true },
    productDivision: { label: L('商品区分', 'Product division'), options: PRODUCT_DIVISION },
    reserveItems: { label: L('フリー項目', 'Free items'), input: 'pairs', ref: 'productLabels', hint: L('ラベルは「フリー項目ラベル」で登録します', 'Labels are registered under Free-item labels') },
  },
  intro: L('取扱店舗はこの画面では変わりません（API の stores）。', 'Store handling is not changed here (the API’s stores).'),
});

/** Free-item labels: fixed slots 1 to 50; the API lists them all at once (no paging). */
export const productLabels = defineKind({
  kind: 'product-labels',
  list: '/{contract_id}/pos/products/reserve_item_labels',
  item: '/{contract_id}/pos/products/reserve_item_labels/{no}',
  idParam: 'no',
  key: 'no',
  name: 'label',
  create: true,
  update: 'patch',
  remove: true,
  load: 'item',
  columns: ['no', 'label', 'updDateTime'],
  form: ['no', 'label'],
  createOnly: ['no'],
  paging: null,
  props: {
    no: { label: L('番号', 'No.'), required: true, hint: L('1〜50', '1 to 50') },
    label: { label: L('ラベル', 'Label'), required: true, max: 85 },
  },
  plans: { remove: FIVE_PLANS },
});
