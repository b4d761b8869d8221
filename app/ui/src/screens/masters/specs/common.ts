import { L, type Label, type Plan, type Prop } from '../spec';

/** Options written as `{ '0': ['税込', 'Tax-included'] }`. */
export const options = (o: Record<string, readonly [string, string]>): Record<string, Label> =>
  Object.fromEntries(Object.entries(o).map(([value, [ja, en]]) => [value, L(ja, en)]));

export const DISPLAY_FLAG = options({ '0': ['表示しない', 'Hidden'], '1': ['表示する', 'Shown'] });
export const TAX_DIVISION = options({ '0': ['内税', 'Tax-included'], '1': ['外税', 'Tax-excluded'], '2': ['非課税', 'Non-taxable'] });
export const POINT_NOT_APPLICABLE = options({ '0': ['ポイント対象', 'Points apply'], '1': ['ポイント対象外', 'No points'] });
export const TAX_FREE_DIVISION = options({ '0': ['対象外', 'Not applicable'], '1': ['一般物品', 'General goods'], '2': ['消耗品', 'Consumables'] });
export const REDUCE_TAX = options({
  '10000001': ['軽減税率', 'Reduced rate'],
  '10000002': ['選択（標準）', 'Selectable (standard)'],
  '10000003': ['選択（軽減）', 'Selectable (reduced)'],
  '10000004': ['都度選択', 'Choose each time'],
});
export const FLAG = options({ '0': ['いいえ', 'No'], '1': ['はい', 'Yes'] });

/** Fields many kinds share; a kind's own props win. */
export const SHARED_PROPS: Readonly<Record<string, Prop>> = {
  displayFlag: { label: L('表示', 'Display'), options: DISPLAY_FLAG },
  displaySequence: { label: L('表示順', 'Display order') },
  taxDivision: { label: L('税区分', 'Tax'), options: TAX_DIVISION },
  pointNotApplicable: { label: L('ポイント', 'Points'), options: POINT_NOT_APPLICABLE },
  taxFreeDivision: { label: L('免税区分', 'Tax-free'), options: TAX_FREE_DIVISION },
  reduceTaxId: { label: L('軽減税率', 'Reduced tax'), options: REDUCE_TAX, hint: L('空欄は標準税率', 'Empty: standard rate') },
  storeId: { label: L('店舗', 'Store'), ref: 'stores', required: true },
  categoryId: { label: L('部門', 'Category'), ref: 'categories' },
  insDateTime: { label: L('登録日時', 'Registered') },
  updDateTime: { label: L('更新日時', 'Updated') },
};

/** Spec §4's "five plans" (every plan but enterprise). */
export const FIVE_PLANS: readonly Plan[] = ['standard', 'premium', 'premium_plus', 'food_business', 'retail_business'];
