import { useState } from 'react';
import { call, useApi } from '../../../api/client';
import type { ProblemView } from '../../../api/problem';
import type { components } from '../../../api/schema';
import { DataTable } from '../../../components/DataTable';
import { Facts } from '../../../components/Facts';
import { FormProblem } from '../../../components/FormProblem';
import { Loading } from '../../../components/LoadState';
import { useLang, useT } from '../../../i18n';
import { useFormat, cost, quantity } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import { type Refs } from '../data';
import { fiveDecimals, lineTotals } from '../fields';
import { approvalFact, ApprovalButtons, recordFacts, RecordHeading } from '../record';
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

  if (!shipment) return loaded.state === 'error' ? <FormProblem problem={loaded.problem} /> : <Loading />;
  const details = shipment.details ?? [];
  const total = lineTotals(details);

  return (
    <div className="inv-detail" data-testid="shipment-detail" data-status={shipment.status} data-approval={shipment.approvalStatus}>
      <RecordHeading t={t} back="/inventory/shipments" heading={t('sm.heading', { id: shipment.shipmentId })} notice={notice} />
      <article className="inv-summary">
        <Facts
          items={[
            { label: t('sm.store'), value: refs.storeName(shipment.shipmentStoreId) },
            {
              label: t('sm.recipient'),
              value: (
                <>
                  {shipment.recipientName ?? ''} ({t(`sm.recipientType.${shipment.recipientType}`)})
                </>
              ),
            },
            { label: t('sm.division'), value: t(`sm.division.${shipment.shipmentDivision}`) },
            { label: t('sm.date'), value: format.date(shipment.shipmentDate) },
            { label: t('inv.status'), value: t(`sm.status.${shipment.status}`), valueProps: { 'data-testid': 'status' } },
            approvalFact(t, format, shipment),
            { label: t('inv.taxRate'), value: shipment.taxRate },
            { label: t('sm.rounding'), value: t(`sm.rounding.${shipment.roundingDivision}`) },
            ...recordFacts(t, shipment),
          ]}
        />
        <div className="inv-buttons">
          {shipment.approvalStatus === '0' ? (
            <ApprovalButtons t={t} busy={busy} approve={() => void act({ approvalStatus: '1' }, t('sm.approved'))} reject={() => void act({ approvalStatus: '2' }, t('sm.rejected'))} />
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
      <DataTable
        className="inv-table"
        data-testid="shipment-lines"
        rows={details}
        rowKey={(d) => d.shipmentDetailId}
        rowProps={(d) => ({ 'data-product': d.productId })}
        columns={[
          { key: 'product', header: t('inv.product'), cell: (d) => refs.productLabel(d.productId) },
          { key: 'price', header: t('inv.price'), num: true, cell: (d) => format.yen(d.price) },
          { key: 'cost', header: t('inv.cost'), num: true, cell: (d) => cost(d.cost), cellProps: (d) => ({ title: d.cost }) },
          { key: 'taxRate', header: t('inv.taxRate'), num: true, cell: (d) => d.taxRate },
          { key: 'quantity', header: t('inv.quantity'), num: true, cell: (d) => quantity(d.quantity, lang), cellProps: () => ({ 'data-testid': 'quantity' }) },
          { key: 'amount', header: t('inv.amount'), num: true, cell: (d) => cost(fiveDecimals(Number(d.cost) * Number(d.quantity))) },
          { key: 'memo', header: t('inv.memo'), cell: (d) => d.memo ?? '' },
        ]}
        foot={
          <tr>
            <th scope="row" colSpan={4}>
              {t('sm.total')}
            </th>
            <td className="num">{quantity(total.quantity, lang)}</td>
            <td className="num">{cost(fiveDecimals(total.cost))}</td>
            <td />
          </tr>
        }
      />
      <ShipmentEdit key={shipment.updDateTime} shipment={shipment} refs={refs} onSaved={() => (setNotice(t('sm.saved')), loaded.reload())} />
    </div>
  );
}
