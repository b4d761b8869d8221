import { call, useApi } from '../../../api/client';
import { FormProblem } from '../../../components/FormProblem';
import { useFormat, cost, quantity } from '../../../shared/format';
import { useLang, useT } from '../../../i18n';
import { Link } from '../../../router';
import { useLoad } from '../../../shared/load';
import { type Refs } from '../data';
import { messages } from './i18n';

const round5 = (n: number) => String(Math.round(n * 100000) / 100000);

/**
 * One purchase order (`#/inventory/purchase-orders/<id>`), read only (the API has no update):
 * its header, its delivery stores with expected dates, and its products × stores with costs.
 */
export function OrderDetail({ id, refs, created }: { id: string; refs: Refs; created: boolean }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const { api, contract } = useApi();
  const loaded = useLoad(id, () => call(api.GET('/{contract_id}/pos/purchase_orders/{purchase_order_id}', { params: { path: { ...contract, purchase_order_id: id } } })));
  if (loaded.state === 'error') return <FormProblem problem={loaded.problem} />;
  if (loaded.state === 'loading') return <p aria-busy="true">{t('common.loading')}</p>;
  const order = loaded.data;
  const stores = order.stores ?? [];
  const products = order.products ?? [];
  const storeTotals = stores.map((s) => products.reduce((sum, p) => sum + Number(p.deliveryStore.find((d) => d.storeId === s.storageStoreId)?.quantity ?? 0), 0));
  const totalQuantity = products.reduce((sum, p) => sum + Number(p.quantity), 0);
  const totalCost = products.reduce((sum, p) => sum + Number(p.cost) * Number(p.quantity), 0);

  return (
    <div className="inv-detail" data-testid="order-detail">
      <p>
        <Link to="/inventory/purchase-orders">← {t('inv.back')}</Link>
      </p>
      <h2>{t('po.heading', { id: order.storageInfoId })}</h2>
      <p role="status" className="inv-notice">
        {created ? t('po.created') : ''}
      </p>
      <article className="inv-summary">
        <dl>
          <div>
            <dt>{t('po.supplier')}</dt>
            <dd>{refs.supplierName(order.recipientOrderId) || t('po.noSupplier')}</dd>
          </div>
          <div>
            <dt>{t('po.sourceStore')}</dt>
            <dd>{refs.storeName(order.orderSourceStoreId)}</dd>
          </div>
          <div>
            <dt>{t('po.orderedDate')}</dt>
            <dd>{format.date(order.orderedDate)}</dd>
          </div>
          <div>
            <dt>{t('inv.status')}</dt>
            <dd data-testid="status">{t(`po.status.${order.status}`)}</dd>
          </div>
          <div>
            <dt>{t('po.staffName')}</dt>
            <dd>{order.orderStaffName ?? ''}</dd>
          </div>
          <div>
            <dt>{t('po.divisionUnit')}</dt>
            <dd>{t(`po.divisionUnit.${order.divisionUnit}`)}</dd>
          </div>
          <div>
            <dt>{t('po.rounding')}</dt>
            <dd>{t(`po.rounding.${order.roundingDivision}`)}</dd>
          </div>
          <div>
            <dt>{t('inv.identificationNo')}</dt>
            <dd>{order.identificationNo ?? ''}</dd>
          </div>
          <div className="inv-wide">
            <dt>{t('inv.memo')}</dt>
            <dd>{order.memo ?? ''}</dd>
          </div>
        </dl>
      </article>
      <div className="inv-table-wrap">
        <table className="inv-table" data-testid="order-products">
          <thead>
            <tr>
              <th scope="col">{t('inv.product')}</th>
              <th scope="col" className="num">
                {t('inv.cost')}
              </th>
              <th scope="col" className="num">
                {t('inv.taxRate')}
              </th>
              {stores.map((s) => (
                <th scope="col" className="num" key={s.storageInfoDeliveryId}>
                  {refs.storeName(s.storageStoreId)}
                  <br />
                  <small className="inv-muted">
                    {t('po.expected')} {format.date(s.storageExpectedDateFrom)}
                    {s.storageExpectedDateTo !== s.storageExpectedDateFrom ? ` – ${format.date(s.storageExpectedDateTo)}` : ''}
                  </small>
                </th>
              ))}
              <th scope="col" className="num">
                {t('po.totalQuantity')}
              </th>
              <th scope="col" className="num">
                {t('inv.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {products.map((p) => (
              <tr key={p.storageInfoProductId} data-product={p.productId}>
                <td>{refs.productLabel(p.productId)}</td>
                <td className="num">{cost(p.cost)}</td>
                <td className="num">{p.taxRate}</td>
                {stores.map((s) => (
                  <td className="num" key={s.storageInfoDeliveryId} data-store={s.storageStoreId}>
                    {quantity(p.deliveryStore.find((d) => d.storeId === s.storageStoreId)?.quantity ?? '', lang)}
                  </td>
                ))}
                <td className="num" data-testid="quantity">
                  {quantity(p.quantity, lang)}
                </td>
                <td className="num">{cost(round5(Number(p.cost) * Number(p.quantity)))}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                {t('po.total')}
              </th>
              {storeTotals.map((n, j) => (
                <td className="num" key={j}>
                  {quantity(n, lang)}
                </td>
              ))}
              <td className="num">{quantity(totalQuantity, lang)}</td>
              <td className="num">{cost(round5(totalCost))}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}
