import { useCallback, useEffect, useState } from 'react';
import { call, useApi, type Result } from '../../../api/client';
import type { ProblemView } from '../../../api/problem';
import type { components } from '../../../api/schema';
import { Facts } from '../../../components/Facts';
import { FormProblem } from '../../../components/FormProblem';
import { Loading } from '../../../components/LoadState';
import { useT } from '../../../i18n';
import { Link } from '../../../router';
import { useFormat } from '../../../shared/format';
import type { Refs } from '../data';
import { approvalFact, ApprovalButtons, recordFacts } from '../record';
import { messages, SHIPPING_STATUSES } from './i18n';
import { ModificationPanel } from './Modification';
import { ReceivingForm } from './Receiving';
import { ShippingEdit } from './ShippingEdit';

export type Shipping = components['schemas']['Shipping'];
export type Receiving = components['schemas']['Receiving'];

/** Runs an API call for a part of the screen; answers its problem (null when it succeeded, and then the record is reloaded). */
export type Run = (request: () => Promise<Result<unknown>>, done: string) => Promise<ProblemView | null>;

interface ShippingRecord {
  shipping: Shipping;
  receiving: Receiving | null;
}

/**
 * One shipping and its receiving side (`#/inventory/shipping/<id>`): the record, its approval and
 * sending out, the shipping side's edit, the receiving inspection and completion, and the
 * modification request (4.2) with its completion (4.19). What each part allows follows the
 * record's state; the API still decides, and its refusals are shown where they belong.
 */
export function ShippingDetail({ id, refs, created }: { id: string; refs: Refs; created: boolean }) {
  const t = useT(messages);
  const format = useFormat();
  const { api, contract } = useApi();
  const [record, setRecord] = useState<ShippingRecord | null>(null);
  const [loadProblem, setLoadProblem] = useState<ProblemView | null>(null);
  const [notice, setNotice] = useState(created ? t('ship.created') : '');
  const [actionProblem, setActionProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (): Promise<void> => {
    const path = { ...contract, shipping_id: id };
    const s = await call(api.GET('/{contract_id}/pos/shipping/{shipping_id}', { params: { path, query: { with_details: 'all' } } }));
    if (!s.ok) return setLoadProblem(s.problem);
    // The receiving side exists once the shipping is sent out (status 1 and later).
    let receiving: Receiving | null = null;
    if (s.data.status !== '0') {
      const r = await call(api.GET('/{contract_id}/pos/receiving/{receiving_id}', { params: { path: { ...contract, receiving_id: id }, query: { with_details: 'all' } } }));
      if (!r.ok) return setLoadProblem(r.problem);
      receiving = r.data;
    }
    setLoadProblem(null);
    setRecord({ shipping: s.data, receiving });
  }, [api, contract, id]);

  useEffect(() => {
    void load();
  }, [load]);

  const run: Run = async (request, done) => {
    setBusy(true);
    setNotice('');
    const r = await request();
    setBusy(false);
    if (!r.ok) return r.problem;
    await load();
    // Said once the screen shows the new state.
    setNotice(done);
    return null;
  };

  const patch = async (body: { status?: '1'; approvalStatus?: '1' | '2' }, done: string) => {
    setActionProblem(null);
    const problem = await run(() => call(api.PATCH('/{contract_id}/pos/shipping/{shipping_id}', { params: { path: { ...contract, shipping_id: id } }, body })), done);
    setActionProblem(problem);
  };

  if (!record) {
    return loadProblem ? <FormProblem problem={loadProblem} /> : <Loading />;
  }
  const { shipping, receiving } = record;
  const requested = shipping.modificationRequestStatus === '1';
  const status = shipping.status;
  // The shipping side may change before inspection, and in inspection only under an open request (3.1).
  const editable = status === '0' || status === '1' || (status === '2' && requested);
  const editNote = status === '3' ? t('ship.receivedLocked') : status === '2' && !requested ? t('ship.editNeedsRequest') : status === '1' ? t('ship.editSent') : null;

  return (
    <div className="inv-detail" data-testid="shipping-detail" data-status={status} data-modification={shipping.modificationRequestStatus}>
      <p>
        <Link to="/inventory/shipping">← {t('inv.back')}</Link>
      </p>
      <h2>{t('ship.heading', { id: shipping.shippingId })}</h2>
      <ol className="inv-steps" aria-label={t('inv.status')}>
        {SHIPPING_STATUSES.map((s) => (
          <li key={s} aria-current={s === status ? 'step' : undefined} className={Number(s) < Number(status) ? 'done' : undefined}>
            {t(`ship.status.${s}`)}
          </li>
        ))}
      </ol>
      <p role="status" className="inv-notice" data-testid="notice">
        {notice}
      </p>
      {loadProblem ? <FormProblem problem={loadProblem} /> : null}
      <article className="inv-summary">
        <Facts
          items={[
            { label: t('ship.from'), value: refs.storeName(shipping.shippingStoreId), valueProps: { 'data-testid': 'from' } },
            { label: t('ship.to'), value: refs.storeName(shipping.receivingStoreId), valueProps: { 'data-testid': 'to' } },
            { label: t('ship.shippingDate'), value: format.date(shipping.shippingDate) },
            {
              label: t('ship.expected'),
              value: (
                <>
                  {format.date(shipping.receivingExpectedDateFrom)} – {format.date(shipping.receivingExpectedDateTo)}
                </>
              ),
            },
            { label: t('inv.status'), value: t(`ship.status.${status}`), valueProps: { 'data-testid': 'status' } },
            approvalFact(t, format, shipping),
            { label: t('ship.modification'), value: t(`ship.mod.${shipping.modificationRequestStatus}`), valueProps: { 'data-testid': 'modification' } },
            ...recordFacts(t, shipping, 'memo'),
          ]}
        />
        <div className="inv-buttons">
          {status === '0' && shipping.approvalStatus === '0' ? (
            <ApprovalButtons t={t} busy={busy} approve={() => void patch({ approvalStatus: '1' }, t('ship.approved'))} reject={() => void patch({ approvalStatus: '2' }, t('ship.rejected'))} />
          ) : null}
          {status === '0' && shipping.approvalStatus === '1' ? (
            <button type="button" disabled={busy} onClick={() => void patch({ status: '1' }, t('ship.sent'))}>
              {t('ship.send')}
            </button>
          ) : null}
          {status === '0' ? <small className="inv-muted">{shipping.approvalStatus === '2' ? t('ship.rejectedNote') : t('ship.sendHint')}</small> : null}
        </div>
        <FormProblem problem={actionProblem} />
      </article>
      {status === '2' || shipping.modificationRequestStatus !== '0' ? <ModificationPanel shipping={shipping} run={run} busy={busy} /> : null}
      <div className={receiving ? 'inv-columns' : undefined}>
        <ShippingEdit key={`edit:${shipping.updDateTime}`} shipping={shipping} refs={refs} editable={editable} note={editNote} run={run} busy={busy} />
        {receiving ? (
          <ReceivingForm key={`recv:${receiving.updDateTime}:${shipping.updDateTime}`} shipping={shipping} receiving={receiving} refs={refs} run={run} busy={busy} />
        ) : null}
      </div>
    </div>
  );
}
