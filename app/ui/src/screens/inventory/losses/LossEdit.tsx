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
import type { Divisions, Loss } from './data';
import { messages } from './i18n';

const HEADER = ['division', 'identificationNo', 'memo'] as const;
type Header = { division: string; identificationNo: string; memo: string };

const headerOf = (l: Loss): Header => ({ division: l.division, identificationNo: l.identificationNo ?? '', memo: l.memo ?? '' });

/**
 * The loss's edit (PATCH /losses/{id}): its division, reference and memo, each line's quantity
 * (by lossDetailId) and added products; only what changed is sent. The store and the time of
 * the loss do not change (the platform's PATCH has neither).
 */
export function LossEdit({ loss, refs, divisions, onSaved }: { loss: Loss; refs: Refs; divisions: Divisions; onSaved(): void }) {
  const t = useT(messages);
  const { api, contract } = useApi();
  const before = headerOf(loss);
  const { values, problem, setProblem, busy, setBusy, choose, set, err } = useRecordForm<Header>(before);
  const [lines, setLines] = useState<Line[]>(() => loss.details.map((d) => newLine({ detailId: d.lossDetailId, productId: d.productId, quantity: d.quantity })));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const sent: number[] = [];
    const details: { lossDetailId?: string; productId?: string; quantity?: string }[] = [];
    lines.forEach((l, i) => {
      const was = loss.details.find((d) => d.lossDetailId === l.detailId);
      const qty = l.quantity.trim();
      if (was && qty === was.quantity) return;
      sent.push(i);
      details.push(was ? { lossDetailId: was.lossDetailId, quantity: qty } : { productId: refs.resolveProduct(l.productId), quantity: qty });
    });
    const body = { ...changed(values, before), ...(details.length ? { details } : {}) };
    if (!Object.keys(body).length) return setProblem({ status: 0, title: '', fields: {}, messages: [t('ls.nothingChanged')] });
    setBusy(true);
    const r = await call(api.PATCH('/{contract_id}/pos/losses/{loss_id}', { params: { path: { ...contract, loss_id: loss.lossId } }, body }));
    setBusy(false);
    if (!r.ok) return setProblem(remapPositions(r.problem, 'details', sent));
    onSaved();
  };

  return (
    <form className="inv-form" onSubmit={submit} noValidate data-testid="loss-edit">
      <h3>{t('ls.edit')}</h3>
      <p className="inv-muted">{t('ls.editHint')}</p>
      <FormProblem problem={problem} shown={[...HEADER, ...lineFieldNames('details', lines.length, ['productId', 'quantity', 'lossDetailId'])]} />
      <div className="inv-grid">
        <SelectField label={t('ls.division')} name="division" value={values.division} onChange={choose('division')} options={divisions.choices} error={err('division')} />
        <Field label={t('inv.identificationNo')} name="identificationNo" value={values.identificationNo} onChange={set('identificationNo')} error={err('identificationNo')} />
        <Field label={t('inv.memo')} name="memo" value={values.memo} onChange={set('memo')} error={err('memo')} />
      </div>
      <ProductLines lines={lines} onChange={setLines} refs={refs} problem={problem} prefix="details" idField="lossDetailId" caption={t('ls.lines')} />
      <div className="inv-buttons">
        <button type="submit" disabled={busy} aria-busy={busy}>
          {t('ls.save')}
        </button>
      </div>
    </form>
  );
}
