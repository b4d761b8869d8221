import type { AppDeps } from '../deps.js';
import { CustomerGroupRepo } from '../masters/customer-groups/repo.js';
import { CustomerRepo } from '../masters/customers/repo.js';
import { PaymentMethodGroupRepo } from '../masters/payment-method-groups/repo.js';
import { PaymentMethodRepo } from '../masters/payment-methods/repo.js';
import { ProductBundleGroupRepo } from '../masters/product-bundle-groups/repo.js';
import type { DemoContext } from './context.js';

/**
 * The masters member sales and other payments need: two members (one with points, in the
 * demo's customer groups when they exist), one payment method group holding four methods —
 * a 500-yen voucher counted in units, a credit card registered by the individual-application
 * operation, a QR code payment and a gift certificate (securities) — and one bundle group.
 * Payment division codes of the demo: 1 voucher, 2 credit card, 3 QR code, 4 gift certificate.
 */
export function seedSalesMasters(deps: AppDeps, ctx: DemoContext): Record<string, number> {
  const { db, writer, ids, clock } = deps;
  const customers = new CustomerRepo(db, writer, ids, clock);
  const customerGroups = new CustomerGroupRepo(db, writer, ids, clock);
  const groups = new PaymentMethodGroupRepo(db, writer, ids, clock);
  const methods = new PaymentMethodRepo(db, writer, ids, clock);
  const bundles = new ProductBundleGroupRepo(db, writer, ids, clock);
  const id = ctx.contractId;

  return writer.write(() => {
    // The group of a section with the given label, if the demo created it.
    const firstPage = { limit: 100, page: 1, sort: [] };
    const groupOf = (section: string, label: string) => {
      const rows = customerGroups.list(id, { customer_group_section_id: section, ...firstPage }, firstPage);
      const row = rows.find((r) => r.label === label);
      return row ? String(row.customer_group_id) : undefined;
    };
    const women = groupOf('1', 'Women');
    const thirties = groupOf('2', '30s');
    customers.create(id, {
      customerCode: 'M0001',
      lastName: 'Yamada',
      firstName: 'Hanako',
      lastKana: 'ヤマダ',
      firstKana: 'ハナコ',
      rank: 'GOLD',
      point: '1250',
      pinCode: '0001',
      ...(women ? { customerGroupId: women } : {}),
      ...(thirties ? { customerGroupId2: thirties } : {}),
    });
    customers.create(id, { customerCode: 'M0002', lastName: 'Suzuki', firstName: 'Taro', lastKana: 'スズキ', firstKana: 'タロウ' });

    const group = String(groups.create(id, { paymentMethodGroupName: 'Other payments', displaySequence: '1' }).payment_method_group_id);
    const common = { paymentMethodGroupId: group };
    methods.create(id, {
      ...common,
      paymentMethodCode: 'VOUCHER500',
      paymentMethodName: 'Shopping voucher 500',
      paymentDivision: '1',
      paymentUnitPrice: '500',
      paymentChangeFlag: '1',
      displaySequence: '1',
    });
    methods.create(id, { ...common, paymentMethodCode: 'CARD', paymentMethodName: 'Credit card', paymentDivision: '2', displaySequence: '2' }, '1');
    methods.create(id, { ...common, paymentMethodCode: 'QR', paymentMethodName: 'QR code payment', paymentDivision: '3', displaySequence: '3' });
    methods.create(id, {
      ...common,
      paymentMethodCode: 'GIFT',
      paymentMethodName: 'Gift certificate',
      paymentDivision: '4',
      paymentSecuritiesFlag: '1',
      displaySequence: '4',
    });

    bundles.create(id, { productBundleGroupName: 'Any 3 for 1000', division: '1', quantity: '3', value: '1000' });
    return { customers: 2, paymentMethodGroups: 1, paymentMethods: 4, productBundleGroups: 1 };
  });
}
