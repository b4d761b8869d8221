import type { AppDeps } from '../deps.js';
import { formatDate, isCalendarDate } from '../domain/time.js';
import { BudgetRepo } from '../masters/budgets/repo.js';
import { ContractRepo } from '../platform/contracts/repo.js';
import { ProductLabelRepo } from '../masters/product-labels/repo.js';
import { ProductRepo } from '../masters/products/repo.js';
import type { CreateProduct } from '../masters/products/schema.js';
import type { DemoContext } from './context.js';

type DemoProduct = Omit<CreateProduct, 'categoryId'> & { category: string };

/** The last label is left unused on purpose, so DELETE /products/reserve_item_labels/5 can be shown. */
const RETAIL_LABELS = ['Supplier', 'Season', 'Material', 'Country of origin', 'Care instructions'];
const FOOD_LABELS = ['Supplier', 'Season', 'Allergens', 'Origin', 'Wine pairing'];

const items = (...pairs: [no: string, value: string][]) => pairs.map(([no, value]) => ({ no, value }));

const RETAIL_PRODUCTS: DemoProduct[] = [
  { category: 'APP-TOP-TEE', productCode: 'RT-TEE-WH', productName: 'Basic Tee White', price: '1980', cost: '800', reserveItems: items(['1', 'Cotton Co.'], ['3', 'Cotton 100%']) },
  { category: 'APP-TOP-TEE', productCode: 'RT-TEE-BK', productName: 'Basic Tee Black', price: '1980', cost: '800', reserveItems: items(['1', 'Cotton Co.'], ['3', 'Cotton 100%']) },
  { category: 'APP-TOP-TEE', productCode: 'RT-TEE-GR', productName: 'Graphic Tee', price: '2980', cost: '1100', reserveItems: items(['2', 'Summer']) },
  { category: 'APP-TOP-SHIRT', productCode: 'RT-SHT-OX', productName: 'Oxford Shirt', price: '4980', cost: '2100.5', reserveItems: items(['3', 'Cotton'], ['4', 'Japan']) },
  { category: 'APP-TOP-SHIRT', productCode: 'RT-SHT-LN', productName: 'Linen Shirt', price: '5980', cost: '2600', reserveItems: items(['2', 'Summer'], ['3', 'Linen']) },
  { category: 'APP-BTM', productCode: 'RT-BTM-CH', productName: 'Chino Pants', price: '5980', cost: '2500' },
  { category: 'APP-BTM', productCode: 'RT-BTM-DN', productName: 'Selvedge Denim', price: '12800', cost: '5200', reserveItems: items(['4', 'Japan']) },
  { category: 'ACC', productCode: 'RT-ACC-TOTE', productName: 'Canvas Tote', price: '1500', cost: '450', taxFreeDivision: '1' },
  { category: 'ACC', productCode: 'RT-ACC-WRAP', productName: 'Gift wrapping', price: '300', productDivision: '2' },
  { category: 'SNK', productCode: 'RT-SNK-RC', productName: 'Rice Crackers', price: '398', cost: '180', reduceTaxId: '10000001', taxFreeDivision: '2' },
  { category: 'SNK', productCode: 'RT-SNK-CH', productName: 'Green Tea Chocolate', price: '648', cost: '300', reduceTaxId: '10000001', taxFreeDivision: '2', reserveItems: items(['2', 'Winter']) },
];

// Eat-in and take-out are taxed differently, so food and soft drinks choose the rate each time.
const EACH_TIME = '10000004';
const FOOD_PRODUCTS: DemoProduct[] = [
  { category: 'DRK-COF', productCode: 'FD-COF-BL', productName: 'House Blend Coffee', price: '450', cost: '90', reduceTaxId: EACH_TIME, reserveItems: items(['1', 'Bean Roasters'], ['4', 'Brazil']) },
  { category: 'DRK-COF', productCode: 'FD-COF-LT', productName: 'Cafe Latte', price: '520', cost: '120', reduceTaxId: EACH_TIME, reserveItems: items(['3', 'milk']) },
  { category: 'DRK-COF', productCode: 'FD-COF-IC', productName: 'Iced Coffee', price: '480', cost: '95', reduceTaxId: EACH_TIME, reserveItems: items(['2', 'Summer']) },
  { category: 'DRK-ALC', productCode: 'FD-ALC-BR', productName: 'Draft Beer', price: '600', cost: '180', pointNotApplicable: '1' },
  { category: 'DRK-ALC', productCode: 'FD-ALC-WN', productName: 'House Wine (glass)', price: '700', cost: '210', pointNotApplicable: '1', reserveItems: items(['4', 'Chile']) },
  { category: 'FOD-PST', productCode: 'FD-PST-CB', productName: 'Carbonara', price: '1280', cost: '350', reduceTaxId: EACH_TIME, reserveItems: items(['3', 'egg, milk, wheat']) },
  { category: 'FOD-PST', productCode: 'FD-PST-PS', productName: 'Pescatore', price: '1580', cost: '520', reduceTaxId: EACH_TIME, reserveItems: items(['2', 'Winter'], ['3', 'shrimp, wheat']) },
  { category: 'FOD-PST', productCode: 'FD-SET-LN', productName: 'Pasta lunch set', price: '1500', reduceTaxId: EACH_TIME, productDivision: '5' },
  { category: 'FOD-DST', productCode: 'FD-DST-TR', productName: 'Tiramisu', price: '580', cost: '140', reduceTaxId: EACH_TIME, reserveItems: items(['3', 'egg, milk, wheat']) },
  { category: 'FOD-DST', productCode: 'FD-DST-GL', productName: 'Gelato', price: '480', cost: '110', reduceTaxId: EACH_TIME, reserveItems: items(['2', 'Summer'], ['3', 'milk']) },
];

/** Daily sales and customer-count targets of the main store; weekends sell more. */
const TARGETS = {
  retail: { weekday: ['180000', '95'], weekend: ['320000', '160'] },
  food: { weekday: ['150000', '110'], weekend: ['240000', '170'] },
} as const;

/**
 * Demo products: five free-item labels (the fifth unused), about ten products over the demo
 * categories, and daily budgets of the main store for the current and the next month in
 * the contract's zone. Runs inside the demo seed's transaction.
 */
export function seedProducts(deps: AppDeps, ctx: DemoContext): Record<string, number> {
  const labels = new ProductLabelRepo(deps.db, deps.writer, deps.clock);
  const products = new ProductRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const budgets = new BudgetRepo(deps.db, deps.writer, deps.ids, deps.clock);
  const food = ctx.plan === 'food_business';
  const { contractId } = ctx;

  return deps.writer.write(() => {
    (food ? FOOD_LABELS : RETAIL_LABELS).forEach((label, i) => labels.create(contractId, { no: String(i + 1), label }));

    const list = food ? FOOD_PRODUCTS : RETAIL_PRODUCTS;
    for (const { category, ...product } of list) {
      const categoryId = ctx.categoryIds[category];
      if (!categoryId) throw new Error(`demo category ${category} is missing`);
      products.create(contractId, { ...product, categoryId });
    }

    const zone = new ContractRepo(deps.db, deps.writer, deps.clock).find(contractId)?.timeZone ?? 'Asia/Tokyo';
    const [year, month] = formatDate(deps.clock.now().getTime(), zone).split('-').map(Number) as [number, number];
    const targets = TARGETS[food ? 'food' : 'retail'];
    let budgetDays = 0;
    for (const [y, m] of [[year, month], month === 12 ? [year + 1, 1] : [year, month + 1]] as const) {
      const mm = String(m).padStart(2, '0');
      const days = [];
      for (let d = 1; isCalendarDate(y, m, d); d++) {
        const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
        const [salesTarget, customerCountTarget] = weekday === 0 || weekday === 6 ? targets.weekend : targets.weekday;
        days.push({ date: `${y}-${mm}-${String(d).padStart(2, '0')}`, salesTarget, customerCountTarget });
      }
      budgets.putMonth(contractId, { storeId: ctx.storeIds[0], year: String(y), month: mm }, { days });
      budgetDays += days.length;
    }
    return { productLabels: (food ? FOOD_LABELS : RETAIL_LABELS).length, products: list.length, budgetDays };
  });
}
