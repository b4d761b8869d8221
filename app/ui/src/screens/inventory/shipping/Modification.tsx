import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../../api/client';
import { fieldError, type ProblemView } from '../../../api/problem';
import { Facts } from '../../../components/Facts';
import { Field } from '../../../components/Field';
import { FormProblem } from '../../../components/FormProblem';
import { useT } from '../../../i18n';
import { useFormat } from '../../../shared/format';
import { messages } from './i18n';
import type { Run, Shipping } from './ShippingDetail';

/**
 * The modification request (3.1, 4.2) of a shipping in receiving inspection: the receiving store
 * asks the shipping store to correct the shipping (a memo, if given, replaces the memo). While it
 * is open the shipping side may be edited and the receiving side may not; its completion (4.19)
 * carries the edits over to the receiving side. Shows its state and both times.
 */
export function ModificationPanel({ shipping, run, busy }: { shipping: Shipping; run: Run; busy: boolean }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const [memo, setMemo] = useState('');
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const state = shipping.modificationRequestStatus;
  const path = { ...contract, shipping_id: shipping.shippingId };
  const canRequest = shipping.status === '2' && state !== '1';
  const when = (at: string | null | undefined) => (at ? format.dateTime(at) : '—');

  const request = async (e: FormEvent) => {
    e.preventDefault();
    const body = memo.trim() ? { memo } : {};
    setProblem(await run(() => call(api.POST('/{contract_id}/pos/shipping/{shipping_id}/modification_request', { params: { path }, body })), t('mod.requestedNotice')));
  };

  const complete = async () => {
    setProblem(await run(() => call(api.POST('/{contract_id}/pos/shipping_modification_requests/{shipping_id}/complete', { params: { path } })), t('mod.completedNotice')));
  };

  return (
    <article className="inv-modification" data-testid="modification-panel" data-state={state}>
      <header>
        <h3>{t('mod.title')}</h3>
      </header>
      <Facts
        className="inv-inline-dl"
        items={[
          { label: t('inv.status'), value: t(`ship.mod.${state}`), valueProps: { 'data-testid': 'mod-state' } },
          { label: t('mod.requestedAt'), value: when(shipping.modificationRequestDateTime), valueProps: { 'data-testid': 'mod-requested-at' } },
          { label: t('mod.checkedAt'), value: when(shipping.modificationRequestCheckedDateTime), valueProps: { 'data-testid': 'mod-checked-at' } },
        ]}
      />
      <FormProblem problem={problem} shown={['memo']} />
      {state === '1' ? (
        <>
          <p className="notice" role="note">
            {t('mod.openNote')}
          </p>
          <button type="button" disabled={busy} onClick={() => void complete()}>
            {t('mod.complete')}
          </button>
        </>
      ) : canRequest ? (
        <form onSubmit={request} noValidate className="inv-mod-form">
          <Field label={t('mod.memo')} name="memo" error={fieldError(problem, 'memo')} hint={t('mod.memoHint')}>
            <textarea rows={2} value={memo} onChange={(e) => setMemo(e.target.value)} />
          </Field>
          <button type="submit" disabled={busy}>
            {t('mod.request')}
          </button>
        </form>
      ) : null}
    </article>
  );
}
