import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { fieldError, type ProblemView } from '../../../api/problem';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { SelectField } from '../../../components/SelectField';
import { useT } from '../../../i18n';
import { Link, navigate } from '../../../router';
import { useFormat } from '../../../shared/format';
import type { Refs } from '../data';
import { lineFieldNames, newLine, ProductLines, type Line } from '../ProductLines';
import { messages } from './i18n';
import { ShippingDates } from './ShippingDates';

const HEADER_FIELDS = ['shippingStoreId', 'receivingStoreId', 'shippingDate', 'receivingExpectedDateFrom', 'receivingExpectedDateTo', 'identificationNo', 'memo', 'status', 'approvalStatus'];

/**
 * A new shipping: from which store to which, the dates, and the products with their quantities.
 * It is saved not shipped (status 0) unless "send now" is ticked (status 1: the stock leaves the
 * shipping store at once). Every API error is shown on the field it names.
 */
export function ShippingCreate({ refs }: { refs: Refs }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const today = format.today();
  const first = refs.stores[0]?.storeId ?? '';
  const second = refs.stores.find((s) => s.storeId !== first)?.storeId ?? '';
  const [values, setValues] = useState({
    shippingStoreId: first,
    receivingStoreId: second,
    shippingDate: today,
    receivingExpectedDateFrom: today,
    receivingExpectedDateTo: today,
    identificationNo: '',
    memo: '',
  });
  const [sendNow, setSendNow] = useState(false);
  const [lines, setLines] = useState<Line[]>(() => [newLine()]);
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);
  const choose = (key: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => choose(key)(e.target.value);
  const err = (field: string) => fieldError(problem, field);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    const r = await call(
      api.POST('/{contract_id}/pos/shipping', {
        params: { path: contract },
        body: {
          shippingStoreId: values.shippingStoreId,
          receivingStoreId: values.receivingStoreId,
          shippingDate: values.shippingDate,
          receivingExpectedDateFrom: values.receivingExpectedDateFrom,
          receivingExpectedDateTo: values.receivingExpectedDateTo,
          ...(values.identificationNo ? { identificationNo: values.identificationNo } : {}),
          ...(values.memo ? { memo: values.memo } : {}),
          status: sendNow ? '1' : '0',
          // Every line goes out in order, so `details[i]` in an error is line i.
          details: lines.map((l) => ({ productId: refs.resolveProduct(l.productId), quantity: l.quantity.trim() })),
        },
      }),
    );
    setBusy(false);
    if (!r.ok) return setProblem(r.problem);
    navigate(`/inventory/shipping/${r.data.shippingId}?created=1`);
  };

  return (
    <form onSubmit={submit} className="inv-form" noValidate data-testid="shipping-create">
      <h2>{t('ship.new')}</h2>
      <FormProblem problem={problem} shown={[...HEADER_FIELDS, ...lineFieldNames('details', lines.length, ['productId', 'quantity'])]} />
      <div className="inv-grid">
        <SelectField label={t('ship.from')} name="shippingStoreId" value={values.shippingStoreId} onChange={choose('shippingStoreId')} options={refs.storeChoices} error={err('shippingStoreId')} required />
        <SelectField label={t('ship.to')} name="receivingStoreId" value={values.receivingStoreId} onChange={choose('receivingStoreId')} options={refs.storeChoices} error={err('receivingStoreId')} required />
        <ShippingDates values={values} onChange={(field, value) => setValues((v) => ({ ...v, [field]: value }))} problem={problem} required />
        <Field label={t('inv.identificationNo')} name="identificationNo" value={values.identificationNo} onChange={set('identificationNo')} error={err('identificationNo')} />
      </div>
      <Field label={t('inv.memo')} name="memo" error={err('memo')}>
        <textarea rows={2} value={values.memo} onChange={set('memo')} />
      </Field>
      <ProductLines lines={lines} onChange={setLines} refs={refs} problem={problem} prefix="details" caption={t('ship.lines')} />
      <label className="inv-check">
        <input type="checkbox" name="sendNow" checked={sendNow} onChange={(e) => setSendNow(e.target.checked)} />
        {t('ship.sendNow')}
      </label>
      {err('status') || err('approvalStatus') ? <small className="field-error">{[err('status'), err('approvalStatus')].filter(Boolean).join('; ')}</small> : null}
      <div className="inv-buttons">
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t('ship.register')}
        </button>
        <Link to="/inventory/shipping" role="button" className="secondary outline">
          {t('common.cancel')}
        </Link>
      </div>
    </form>
  );
}
