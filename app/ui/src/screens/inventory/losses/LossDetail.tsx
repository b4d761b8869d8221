import { useState } from 'react';
import { call, useApi } from '../../../api/client';
import type { ProblemView } from '../../../api/problem';
import { DataTable } from '../../../components/DataTable';
import { Facts } from '../../../components/Facts';
import { FormProblem } from '../../../components/FormProblem';
import { Loading } from '../../../components/LoadState';
import { useLang, useT } from '../../../i18n';
import { navigate } from '../../../router';
import { cost, quantity, useFormat } from '../../../shared/format';
import { useLoad } from '../../../shared/load';
import type { Refs } from '../data';
import { fiveDecimals, lineTotals } from '../fields';
import { recordFacts, RecordHeading } from '../record';
import type { Divisions } from './data';
import { messages } from './i18n';
import { LossEdit } from './LossEdit';

/**
 * One loss (`#/inventory/losses/<id>`): its store, division and time, the products lost with
 * their cost, the edit form, and the delete (its quantities go back into the store's stock).
 */
export function LossDetail({ id, refs, divisions, created }: { id: string; refs: Refs; divisions: Divisions; created: boolean }) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const { api, contract } = useApi();
  const path = { ...contract, loss_id: id };
  const loaded = useLoad(id, () => call(api.GET('/{contract_id}/pos/losses/{loss_id}', { params: { path } })));
  const loss = loaded.state === 'done' ? loaded.data : null;
  const [notice, setNotice] = useState(created ? t('ls.created') : '');
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    if (!window.confirm(t('ls.deleteConfirm', { id }))) return;
    setBusy(true);
    const r = await call(api.DELETE('/{contract_id}/pos/losses/{loss_id}', { params: { path } }));
    setBusy(false);
    if (!r.ok) return setProblem(r.problem);
    navigate(`/inventory/losses?deleted=${encodeURIComponent(id)}`);
  };

  if (!loss) return loaded.state === 'error' ? <FormProblem problem={loaded.problem} /> : <Loading />;
  const total = lineTotals(loss.details);

  return (
    <div className="inv-detail" data-testid="loss-detail">
      <RecordHeading t={t} back="/inventory/losses" heading={t('ls.heading', { id: loss.lossId })} notice={notice} />
      <article className="inv-summary">
        <Facts
          items={[
            { label: t('inv.store'), value: refs.storeName(loss.storeId) },
            { label: t('ls.division'), value: divisions.label(loss.division), valueProps: { 'data-testid': 'division' } },
            { label: t('ls.lossDateTime'), value: format.dateTime(loss.lossDateTime) },
            { label: t('ls.staff'), value: loss.staffName ?? '' },
            ...recordFacts(t, loss),
          ]}
        />
        <div className="inv-buttons">
          <button type="button" className="secondary outline" disabled={busy} onClick={() => void remove()}>
            {t('ls.delete')}
          </button>
        </div>
        <FormProblem problem={problem} />
      </article>
      <h3>{t('ls.details')}</h3>
      <DataTable
        className="inv-table"
        data-testid="loss-lines"
        rows={loss.details}
        rowKey={(d) => d.lossDetailId}
        rowProps={(d) => ({ 'data-product': d.productId })}
        columns={[
          { key: 'product', header: t('inv.product'), cell: (d) => refs.productLabel(d.productId) },
          { key: 'cost', header: t('inv.cost'), num: true, cell: (d) => cost(d.cost), cellProps: (d) => ({ title: d.cost }) },
          { key: 'taxRate', header: t('inv.taxRate'), num: true, cell: (d) => d.taxRate },
          { key: 'quantity', header: t('inv.quantity'), num: true, cell: (d) => quantity(d.quantity, lang), cellProps: () => ({ 'data-testid': 'quantity' }) },
          { key: 'amount', header: t('inv.amount'), num: true, cell: (d) => cost(fiveDecimals(Number(d.cost) * Number(d.quantity))) },
        ]}
        foot={
          <tr>
            <th scope="row" colSpan={3}>
              {t('ls.total')}
            </th>
            <td className="num">{quantity(total.quantity, lang)}</td>
            <td className="num">{cost(fiveDecimals(total.cost))}</td>
          </tr>
        }
      />
      <LossEdit key={loss.updDateTime} loss={loss} refs={refs} divisions={divisions} onSaved={() => (setNotice(t('ls.saved')), loaded.reload())} />
    </div>
  );
}
