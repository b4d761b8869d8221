import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { SelectField } from '../../../components/SelectField';
import { useT } from '../../../i18n';
import { Link, navigate } from '../../../router';
import { useFormat } from '../../../shared/format';
import type { Refs } from '../data';
import { filled, useRecordForm } from '../form';
import { lineFieldNames, newLine, ProductLines, type Line } from '../ProductLines';
import { messages, RECIPIENT_TYPES, ROUNDING_DIVISIONS, SHIPMENT_DIVISIONS } from './i18n';

type RecipientType = (typeof RECIPIENT_TYPES)[number];
type Division = (typeof SHIPMENT_DIVISIONS)[number];
type Rounding = (typeof ROUNDING_DIVISIONS)[number];

const FIELDS = [
  'shipmentStoreId',
  'recipientType',
  'recipientId',
  'recipientName',
  'shipmentDivision',
  'shipmentDate',
  'status',
  'approvalStatus',
  'taxRate',
  'roundingDivision',
  'identificationNo',
  'memo',
];

/**
 * A new shipment (2.9, 4.12): from a store to a supplier or another recipient, with products,
 * quantities and (optionally) costs — empty costs and tax rates take the API's defaults. It is
 * registered not shipped unless "shipped" is chosen (the stock then leaves at once).
 */
export function ShipmentCreate({ refs }: { refs: Refs }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const { values: v, problem, setProblem, busy, setBusy, choose, set, err } = useRecordForm({
    shipmentStoreId: refs.stores[0]?.storeId ?? '',
    recipientType: (refs.suppliers.length ? '1' : '3') as RecipientType,
    recipientId: refs.suppliers[0]?.supplierId ?? '',
    recipientName: '',
    shipmentDivision: '0' as Division,
    shipmentDate: format.today(),
    status: '0' as '0' | '2',
    approvalStatus: '' as '' | '0' | '1',
    taxRate: '',
    roundingDivision: '1' as Rounding,
    identificationNo: '',
    memo: '',
  });
  const [lines, setLines] = useState<Line[]>(() => [newLine()]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    const r = await call(
      api.POST('/{contract_id}/pos/shipments', {
        params: { path: contract },
        body: {
          shipmentStoreId: v.shipmentStoreId,
          recipientType: v.recipientType,
          ...(v.recipientType === '1' ? { recipientId: v.recipientId } : { recipientName: v.recipientName }),
          shipmentDivision: v.shipmentDivision,
          shipmentDate: v.shipmentDate,
          status: v.status,
          ...(v.approvalStatus ? { approvalStatus: v.approvalStatus } : {}),
          roundingDivision: v.roundingDivision,
          ...filled(v, 'taxRate', 'identificationNo', 'memo'),
          details: lines.map((l) => ({
            productId: refs.resolveProduct(l.productId),
            quantity: l.quantity.trim(),
            ...(l.cost?.trim() ? { cost: l.cost.trim() } : {}),
          })),
        },
      }),
    );
    setBusy(false);
    if (!r.ok) return setProblem(r.problem);
    navigate(`/inventory/shipments/${r.data.shipmentId}?created=1`);
  };

  return (
    <form onSubmit={submit} className="inv-form" noValidate data-testid="shipment-create">
      <h2>{t('sm.new')}</h2>
      <FormProblem problem={problem} shown={[...FIELDS, ...lineFieldNames('details', lines.length, ['productId', 'quantity', 'cost'])]} />
      <div className="inv-grid">
        <SelectField label={t('sm.store')} name="shipmentStoreId" value={v.shipmentStoreId} onChange={choose('shipmentStoreId')} options={refs.storeChoices} error={err('shipmentStoreId')} required />
        <SelectField
          label={t('sm.recipientType')}
          name="recipientType"
          value={v.recipientType}
          onChange={choose('recipientType')}
          options={RECIPIENT_TYPES.map((r) => ({ value: r, label: t(`sm.recipientType.${r}`) }))}
          error={err('recipientType')}
        />
        {v.recipientType === '1' ? (
          <SelectField
            label={t('sm.supplier')}
            name="recipientId"
            value={v.recipientId}
            onChange={choose('recipientId')}
            options={refs.supplierChoices}
            error={err('recipientId')}
            hint={refs.suppliers.length ? undefined : t('sm.noSuppliers')}
          />
        ) : (
          <Field label={t('sm.recipientName')} name="recipientName" value={v.recipientName} onChange={set('recipientName')} error={err('recipientName')} />
        )}
        <SelectField
          label={t('sm.division')}
          name="shipmentDivision"
          value={v.shipmentDivision}
          onChange={choose('shipmentDivision')}
          options={SHIPMENT_DIVISIONS.map((d) => ({ value: d, label: t(`sm.division.${d}`) }))}
          error={err('shipmentDivision')}
        />
        <Field label={t('sm.date')} name="shipmentDate" type="date" value={v.shipmentDate} onChange={set('shipmentDate')} error={err('shipmentDate')} />
        <SelectField
          label={t('inv.status')}
          name="status"
          value={v.status}
          onChange={choose('status')}
          options={(['0', '2'] as const).map((s) => ({ value: s, label: t(`sm.status.${s}`) }))}
          error={err('status')}
          hint={v.status === '2' ? t('sm.shipHint') : undefined}
        />
        <SelectField
          label={t('inv.approval')}
          name="approvalStatus"
          value={v.approvalStatus}
          onChange={choose('approvalStatus')}
          any={t('sm.approvalDefault')}
          options={(['0', '1'] as const).map((s) => ({ value: s, label: t(`inv.approval.${s}`) }))}
          error={err('approvalStatus')}
          hint={t('sm.approvalHint')}
        />
        <Field label={t('inv.taxRate')} name="taxRate" inputMode="decimal" value={v.taxRate} onChange={set('taxRate')} placeholder={t('sm.taxRateHint')} error={err('taxRate')} />
        <SelectField
          label={t('sm.rounding')}
          name="roundingDivision"
          value={v.roundingDivision}
          onChange={choose('roundingDivision')}
          options={ROUNDING_DIVISIONS.map((d) => ({ value: d, label: t(`sm.rounding.${d}`) }))}
          error={err('roundingDivision')}
        />
        <Field label={t('inv.identificationNo')} name="identificationNo" value={v.identificationNo} onChange={set('identificationNo')} error={err('identificationNo')} />
        <Field label={t('inv.memo')} name="memo" value={v.memo} onChange={set('memo')} error={err('memo')} />
      </div>
      <ProductLines lines={lines} onChange={setLines} refs={refs} problem={problem} prefix="details" caption={t('sm.lines')} withCost />
      <div className="inv-buttons">
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t('sm.register')}
        </button>
        <Link to="/inventory/shipments" role="button" className="secondary outline">
          {t('common.cancel')}
        </Link>
      </div>
    </form>
  );
}
