import { useState } from 'react';
import { call, useApi } from '../../../api/client';
import type { ProblemView } from '../../../api/problem';
import type { components } from '../../../api/schema';
import { FormProblem } from '../../../components/FormProblem';
import { useFormat, cost, quantity } from '../../../shared/format';
import { useLang, useT } from '../../../i18n';
import { Link } from '../../../router';
import { useLoad } from '../../../shared/load';
import { type Refs } from '../data';
import { messages } from './i18n';
import { ShipmentEdit } from './ShipmentEdit';

export type Shipment = components['schemas']['Shipment'];

/**
 * One shipment (`#/inventory/shipments/<id>`): its header and details with prices and costs,
 * approve / reject while it is unapproved (3.2), marking it shipped (3.3: the stock leaves the
 * shipment store), and its edit form.
 */
export function ShipmentDetail({ id, refs, created }: { id: string; refs: Refs; created: boolean }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const { api, contract } = useApi();
  const path = { ...contract, shipment_id: id };
  const loaded = useLoad(id, () => call(api.GET('/{contract_id}/pos/shipments/{shipment_id}', { params: { path, query: { with_details: 'all' } } })));
  const shipment = loaded.state === 'done' ? loaded.data : null;
  const [notice, setNotice] = useState(created ? t('sm.created') : '');
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);

  const patch = async (body: { approvalStatus?: '1' | '2'; status?: '2' }, done: string): Promise<ProblemView | null> => {
    setBusy(true);
    setNotice('');
    const r = await call(api.PATCH('/{contract_id}/pos/shipments/{shipment_id}', { params: { path }, body }));
    setBusy(false);
    if (!r.ok) return r.problem;
    setNotice(done);
    loaded.reload();
    return null;
  };
  const act = async (body: { approvalStatus?: '1' | '2'; status?: '2' }, done: string) => setProblem(await patch(body, done));

  if (!shipment) return loaded.state === 'error' ? <FormProblem problem={loaded.problem} /> : <p aria-busy="true">{t('common.loading')}</p>;
  const details = shipment.details ?? [];
  const totalQuantity = details.reduce((sum, d) => sum + Number(d.quantity), 0);
  const totalCost = details.reduce((sum, d) => sum + Number(d.cost) * Number(d.quantity), 0);

  return (
    <div className="inv-detail" data-testid="shipment-detail" data-status={shipment.status} data-approval={shipment.approvalStatus}>
      <p>
        <Link to="/inventory/shipments">← {t('inv.back')}</Link>
      </p>
      <h2>{t('sm.heading', { id: shipment.shipmentId })}</h2>
      <p role="status" className="inv-notice" data-testid="notice">
        {notice}
      </p>
      <article className="inv-summary">
        <dl>
          <div>
            <dt>{t('sm.store')}</dt>
            <dd>{refs.storeName(shipment.shipmentStoreId)}</dd>
          </div>
          <div>
            <dt>{t('sm.recipient')}</dt>
            <dd>
              {shipment.recipientName ?? ''} ({t(`sm.recipientType.${shipment.recipientType}`)})
            </dd>
          </div>
          <div>
            <dt>{t('sm.division')}</dt>
            <dd>{t(`sm.division.${shipment.shipmentDivision}`)}</dd>
          </div>
          <div>
            <dt>{t('sm.date')}</dt>
            <dd>{format.date(shipment.shipmentDate)}</dd>
          </div>
          <div>
            <dt>{t('inv.status')}</dt>
            <dd data-testid="status">{t(`sm.status.${shipment.status}`)}</dd>
          </div>
          <div>
            <dt>{t('inv.approval')}</dt>
            <dd data-testid="approval">
              {t(`inv.approval.${shipment.approvalStatus}`)}
              {shipment.approvalDateTime ? ` (${format.dateTime(shipment.approvalDateTime)})` : ''}
            </dd>
          </div>
          <div>
            <dt>{t('inv.taxRate')}</dt>
            <dd>{shipment.taxRate}</dd>
          </div>
          <div>
            <dt>{t('sm.rounding')}</dt>
            <dd>{t(`sm.rounding.${shipment.roundingDivision}`)}</dd>
          </div>
          <div>
            <dt>{t('inv.identificationNo')}</dt>
            <dd>{shipment.identificationNo ?? ''}</dd>
          </div>
          <div className="inv-wide">
            <dt>{t('inv.memo')}</dt>
            <dd>{shipment.memo ?? ''}</dd>
          </div>
        </dl>
        <div className="inv-buttons">
          {shipment.approvalStatus === '0' ? (
            <>
              <button type="button" disabled={busy} onClick={() => void act({ approvalStatus: '1' }, t('sm.approved'))}>
                {t('inv.approve')}
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => void act({ approvalStatus: '2' }, t('sm.rejected'))}>
                {t('inv.reject')}
              </button>
            </>
          ) : null}
          {shipment.status !== '2' && shipment.approvalStatus === '1' ? (
            <button type="button" disabled={busy} onClick={() => void act({ status: '2' }, t('sm.shippedDone'))}>
              {t('sm.ship')}
            </button>
          ) : null}
          {shipment.status !== '2' ? <small className="inv-muted">{shipment.approvalStatus === '1' ? t('sm.shipHint') : t('sm.shipNeedsApproval')}</small> : null}
        </div>
        <FormProblem problem={problem} />
      </article>
      <h3>{t('sm.details')}</h3>
      <table className="inv-table" data-testid="shipment-lines">
        <thead>
          <tr>
            <th scope="col">{t('inv.product')}</th>
            <th scope="col" className="num">
              {t('inv.price')}
            </th>
            <th scope="col" className="num">
              {t('inv.cost')}
            </th>
            <th scope="col" className="num">
              {t('inv.taxRate')}
            </th>
            <th scope="col" className="num">
              {t('inv.quantity')}
            </th>
            <th scope="col" className="num">
              {t('inv.amount')}
            </th>
            <th scope="col">{t('inv.memo')}</th>
          </tr>
        </thead>
        <tbody>
          {details.map((d) => (
            <tr key={d.shipmentDetailId} data-product={d.productId}>
              <td>{refs.productLabel(d.productId)}</td>
              <td className="num">{format.yen(d.price)}</td>
              <td className="num" title={d.cost}>
                {cost(d.cost)}
              </td>
              <td className="num">{d.taxRate}</td>
              <td className="num" data-testid="quantity">
                {quantity(d.quantity, lang)}
              </td>
              <td className="num">{cost(String(Math.round(Number(d.cost) * Number(d.quantity) * 100000) / 100000))}</td>
              <td>{d.memo ?? ''}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={4}>
              {t('sm.total')}
            </th>
            <td className="num">{quantity(totalQuantity, lang)}</td>
            <td className="num">{cost(String(Math.round(totalCost * 100000) / 100000))}</td>
            <td />
          </tr>
        </tfoot>
      </table>
      <ShipmentEdit key={shipment.updDateTime} shipment={shipment} refs={refs} onSaved={() => (setNotice(t('sm.saved')), loaded.reload())} />
    </div>
  );
}
