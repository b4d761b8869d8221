import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { SelectField } from '../../../components/SelectField';
import { useT } from '../../../i18n';
import type { Refs } from '../data';
import { changed, remapPositions } from '../fields';
import { useRecordForm } from '../form';
import { lineFieldNames, newLine, ProductLines, type Line } from '../ProductLines';
import { messages, SHIPMENT_DIVISIONS } from './i18n';
import type { Shipment } from './ShipmentDetail';

type Division = (typeof SHIPMENT_DIVISIONS)[number];
const HEADER = ['shipmentDate', 'shipmentDivision', 'identificationNo', 'memo'] as const;
type Header = { shipmentDate: string; shipmentDivision: Division; identificationNo: string; memo: string };

/** `800.00000` → `800`, `2100.50000` → `2100.5`: a cost as a person types it. */
const plainCost = (c: string) => (c.includes('.') ? c.replace(/0+$/, '').replace(/\.$/, '') : c);

const headerOf = (s: Shipment): Header => ({
  shipmentDate: s.shipmentDate,
  shipmentDivision: s.shipmentDivision,
  identificationNo: s.identificationNo ?? '',
  memo: s.memo ?? '',
});

/**
 * The shipment's edit (4.12): its date, type, reference and memo, each detail's quantity and
 * cost (by shipmentDetailId), and added products. Only what changed is sent; the API's
 * refusals (a shipped shipment the contract forbids editing, …) are shown where they belong.
 */
export function ShipmentEdit({ shipment, refs, onSaved }: { shipment: Shipment; refs: Refs; onSaved(): void }) {
  const t = useT(messages);
  const { api, contract } = useApi();
  const saved = shipment.details ?? [];
  const before = headerOf(shipment);
  const { values, problem, setProblem, busy, setBusy, choose, set, err } = useRecordForm<Header>(before);
  const [lines, setLines] = useState<Line[]>(() => saved.map((d) => newLine({ detailId: d.shipmentDetailId, productId: d.productId, quantity: d.quantity, cost: plainCost(d.cost) })));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const sent: number[] = [];
    const details: { shipmentDetailId?: string; productId?: string; quantity?: string; cost?: string }[] = [];
    lines.forEach((l, i) => {
      const was = saved.find((d) => d.shipmentDetailId === l.detailId);
      const qty = l.quantity.trim();
      const c = (l.cost ?? '').trim();
      if (was) {
        const change = { ...(qty !== was.quantity ? { quantity: qty } : {}), ...(c && c !== plainCost(was.cost) ? { cost: c } : {}) };
        if (!Object.keys(change).length) return;
        sent.push(i);
        details.push({ shipmentDetailId: was.shipmentDetailId, ...change });
        return;
      }
      sent.push(i);
      details.push({ productId: refs.resolveProduct(l.productId), quantity: qty, ...(c ? { cost: c } : {}) });
    });
    const body = { ...changed(values, before), ...(details.length ? { details } : {}) };
    if (!Object.keys(body).length) return setProblem({ status: 0, title: '', fields: {}, messages: [t('sm.nothingChanged')] });
    setBusy(true);
    const r = await call(api.PATCH('/{contract_id}/pos/shipments/{shipment_id}', { params: { path: { ...contract, shipment_id: shipment.shipmentId } }, body }));
    setBusy(false);
    if (!r.ok) return setProblem(remapPositions(r.problem, 'details', sent));
    onSaved();
  };

  return (
    <form className="inv-form" onSubmit={submit} noValidate data-testid="shipment-edit">
      <h3>{t('sm.edit')}</h3>
      {shipment.status === '2' ? <p className="inv-muted">{t('sm.editShipped')}</p> : null}
      <FormProblem problem={problem} shown={[...HEADER, ...lineFieldNames('details', lines.length, ['productId', 'quantity', 'cost', 'shipmentDetailId'])]} />
      <div className="inv-grid">
        <Field label={t('sm.date')} name="shipmentDate" type="date" value={values.shipmentDate} onChange={set('shipmentDate')} error={err('shipmentDate')} />
        <SelectField
          label={t('sm.division')}
          name="shipmentDivision"
          value={values.shipmentDivision}
          onChange={choose('shipmentDivision')}
          options={SHIPMENT_DIVISIONS.map((d) => ({ value: d, label: t(`sm.division.${d}`) }))}
          error={err('shipmentDivision')}
        />
        <Field label={t('inv.identificationNo')} name="identificationNo" value={values.identificationNo} onChange={set('identificationNo')} error={err('identificationNo')} />
        <Field label={t('inv.memo')} name="memo" value={values.memo} onChange={set('memo')} error={err('memo')} />
      </div>
      <ProductLines lines={lines} onChange={setLines} refs={refs} problem={problem} prefix="details" idField="shipmentDetailId" caption={t('sm.lines')} withCost />
      <div className="inv-buttons">
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t('sm.save')}
        </button>
      </div>
    </form>
  );
}
