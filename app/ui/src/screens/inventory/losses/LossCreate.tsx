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
import { nowWall, wallToIso, type Divisions } from './data';
import { messages } from './i18n';

const FIELDS = ['storeId', 'division', 'lossDateTime', 'identificationNo', 'memo'];

/**
 * A new loss (ロス登録): a store, a loss division, when it happened, and the products lost with
 * their quantities. Registering takes the quantities out of the store's stock at once.
 */
export function LossCreate({ refs, divisions }: { refs: Refs; divisions: Divisions }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const { values: v, problem, setProblem, busy, setBusy, choose, set, err } = useRecordForm({
    storeId: refs.stores[0]?.storeId ?? '',
    division: divisions.list[0]?.divisionCode ?? '',
    lossDateTime: nowWall(format.timeZone),
    identificationNo: '',
    memo: '',
  });
  const [lines, setLines] = useState<Line[]>(() => [newLine()]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    const r = await call(
      api.POST('/{contract_id}/pos/losses', {
        params: { path: contract },
        body: {
          storeId: v.storeId,
          division: v.division,
          lossDateTime: wallToIso(v.lossDateTime, format.timeZone),
          ...filled(v, 'identificationNo', 'memo'),
          details: lines.map((l) => ({ productId: refs.resolveProduct(l.productId), quantity: l.quantity.trim() })),
        },
      }),
    );
    setBusy(false);
    if (!r.ok) return setProblem(r.problem);
    navigate(`/inventory/losses/${r.data.lossId}?created=1`);
  };

  return (
    <form onSubmit={submit} className="inv-form" noValidate data-testid="loss-create">
      <h2>{t('ls.new')}</h2>
      <FormProblem problem={problem} shown={[...FIELDS, ...lineFieldNames('details', lines.length, ['productId', 'quantity'])]} />
      <div className="inv-grid">
        <SelectField label={t('inv.store')} name="storeId" value={v.storeId} onChange={choose('storeId')} options={refs.storeChoices} error={err('storeId')} required />
        <SelectField
          label={t('ls.division')}
          name="division"
          value={v.division}
          onChange={choose('division')}
          options={divisions.choices}
          error={err('division')}
          hint={divisions.list.length ? undefined : t('ls.noDivisions')}
          required
        />
        <Field
          label={t('ls.lossDateTime')}
          name="lossDateTime"
          type="datetime-local"
          value={v.lossDateTime}
          onChange={set('lossDateTime')}
          error={err('lossDateTime')}
          hint={t('ls.zoneHint', { zone: format.timeZone })}
          required
        />
        <Field label={t('inv.identificationNo')} name="identificationNo" value={v.identificationNo} onChange={set('identificationNo')} error={err('identificationNo')} />
        <Field label={t('inv.memo')} name="memo" value={v.memo} onChange={set('memo')} error={err('memo')} />
      </div>
      <ProductLines lines={lines} onChange={setLines} refs={refs} problem={problem} prefix="details" caption={t('ls.lines')} />
      <p className="inv-muted">{t('ls.stockHint')}</p>
      <div className="inv-buttons">
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t('ls.register')}
        </button>
        <Link to="/inventory/losses" role="button" className="secondary outline">
          {t('common.cancel')}
        </Link>
      </div>
    </form>
  );
}
