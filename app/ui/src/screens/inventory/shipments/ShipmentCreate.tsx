import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { fieldError, type ProblemView } from '../../../api/problem';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { useFormat } from '../../../shared/format';
import { useT } from '../../../i18n';
import { Link, navigate } from '../../../router';
import type { Refs } from '../data';
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
  const [v, setV] = useState({
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
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof v) => (e: { target: { value: string } }) => setV((x) => ({ ...x, [key]: e.target.value }));
  const err = (f: string) => fieldError(problem, f);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    const optional = (key: 'taxRate' | 'identificationNo' | 'memo') => (v[key].trim() ? { [key]: v[key].trim() } : {});
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
          ...optional('taxRate'),
          ...optional('identificationNo'),
          ...optional('memo'),
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
        <Field label={t('sm.store')} name="shipmentStoreId" error={err('shipmentStoreId')} required>
          <select value={v.shipmentStoreId} onChange={set('shipmentStoreId')}>
            {refs.stores.map((s) => (
              <option key={s.storeId} value={s.storeId}>
                {s.storeName}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('sm.recipientType')} name="recipientType" error={err('recipientType')}>
          <select value={v.recipientType} onChange={set('recipientType')}>
            {RECIPIENT_TYPES.map((r) => (
              <option key={r} value={r}>
                {t(`sm.recipientType.${r}`)}
              </option>
            ))}
          </select>
        </Field>
        {v.recipientType === '1' ? (
          <Field label={t('sm.supplier')} name="recipientId" error={err('recipientId')} hint={refs.suppliers.length ? undefined : t('sm.noSuppliers')}>
            <select value={v.recipientId} onChange={set('recipientId')}>
              {refs.suppliers.map((s) => (
                <option key={s.supplierId} value={s.supplierId}>
                  {s.supplierName}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <Field label={t('sm.recipientName')} name="recipientName" value={v.recipientName} onChange={set('recipientName')} error={err('recipientName')} />
        )}
        <Field label={t('sm.division')} name="shipmentDivision" error={err('shipmentDivision')}>
          <select value={v.shipmentDivision} onChange={set('shipmentDivision')}>
            {SHIPMENT_DIVISIONS.map((d) => (
              <option key={d} value={d}>
                {t(`sm.division.${d}`)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('sm.date')} name="shipmentDate" type="date" value={v.shipmentDate} onChange={set('shipmentDate')} error={err('shipmentDate')} />
        <Field label={t('inv.status')} name="status" error={err('status')} hint={v.status === '2' ? t('sm.shipHint') : undefined}>
          <select value={v.status} onChange={set('status')}>
            <option value="0">{t('sm.status.0')}</option>
            <option value="2">{t('sm.status.2')}</option>
          </select>
        </Field>
        <Field label={t('inv.approval')} name="approvalStatus" error={err('approvalStatus')} hint={t('sm.approvalHint')}>
          <select value={v.approvalStatus} onChange={set('approvalStatus')}>
            <option value="">{t('sm.approvalDefault')}</option>
            <option value="0">{t('inv.approval.0')}</option>
            <option value="1">{t('inv.approval.1')}</option>
          </select>
        </Field>
        <Field label={t('inv.taxRate')} name="taxRate" inputMode="decimal" value={v.taxRate} onChange={set('taxRate')} placeholder={t('sm.taxRateHint')} error={err('taxRate')} />
        <Field label={t('sm.rounding')} name="roundingDivision" error={err('roundingDivision')}>
          <select value={v.roundingDivision} onChange={set('roundingDivision')}>
            {ROUNDING_DIVISIONS.map((d) => (
              <option key={d} value={d}>
                {t(`sm.rounding.${d}`)}
              </option>
            ))}
          </select>
        </Field>
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
