import { useState } from 'react';
import { call, useApi } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import type { components } from '../../api/schema';
import { Badge } from '../../components/Badge';
import { DataTable } from '../../components/DataTable';
import { FormProblem } from '../../components/FormProblem';
import type { Translate } from '../../i18n';
import { useFormat } from '../../shared/format';
import type { messages } from './i18n';

export type Delivery = components['schemas']['WebhookDelivery'];
export type DeliveryStatus = Delivery['status'];
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'dead'];
/** How many deliveries the screen lists (newest first). */
export const DELIVERIES_SHOWN = 20;
type Key = keyof (typeof messages)['ja'];

/** Webhook deliveries, newest first, filtered by status; a dead or delivered one can be replayed. */
export function Deliveries({
  t,
  deliveries,
  status,
  onStatus,
  onChanged,
}: {
  t: Translate<Key>;
  deliveries: Delivery[];
  status: DeliveryStatus | '';
  onStatus: (status: DeliveryStatus | '') => void;
  onChanged: () => Promise<void>;
}) {
  const f = useFormat();
  const { api, contract } = useApi();
  const [busy, setBusy] = useState<string | null>(null);
  const [problems, setProblems] = useState<Record<string, ProblemView>>({});
  const [done, setDone] = useState<string | null>(null);

  const replay = async (id: string) => {
    setBusy(id);
    setDone(null);
    const result = await call(api.POST('/{contract_id}/pos/webhook_deliveries/{delivery_id}/replay', { params: { path: { ...contract, delivery_id: id } } }));
    setBusy(null);
    setProblems(({ [id]: _, ...rest }) => (result.ok ? rest : { ...rest, [id]: result.problem }));
    if (result.ok) {
      setDone(t('webhooks.replayed', { id }));
      await onChanged();
    }
  };

  return (
    <article data-testid="webhook-deliveries">
      <header className="screen-head">
        <h2>{t('webhooks.title')}</h2>
        <label className="inline-select">
          <span>{t('webhooks.filter')}</span>
          <select value={status} onChange={(e) => onStatus(e.target.value as DeliveryStatus | '')} name="status">
            <option value="">{t('webhooks.all')}</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`webhooks.status.${s}`)}
              </option>
            ))}
          </select>
        </label>
      </header>
      {done ? (
        <p role="status" className="notice">
          {done}
        </p>
      ) : null}
      {deliveries.length === 0 ? (
        <p>{t('webhooks.none')}</p>
      ) : (
        <DataTable
          className="striped"
          caption={t('webhooks.shown', { count: DELIVERIES_SHOWN })}
          captionProps={{ className: 'muted' }}
          rows={deliveries}
          rowKey={(d) => d.deliveryId}
          rowProps={(d) => ({ 'data-delivery-id': d.deliveryId, 'data-status': d.status })}
          columns={[
            { key: 'id', header: t('col.id'), cell: (d) => d.deliveryId },
            {
              key: 'event',
              header: t('col.event'),
              cell: (d) => (
                <>
                  {d.event}
                  {d.action ? ` (${d.action})` : ''}
                </>
              ),
            },
            { key: 'url', header: t('col.url'), cellClass: 'url', cell: (d) => d.url, cellProps: (d) => ({ title: d.url }) },
            {
              key: 'status',
              header: t('col.status'),
              cell: (d) => (
                <>
                  <Badge status={d.status}>{t(`webhooks.status.${d.status}`)}</Badge>
                  {d.nextAttemptDateTime ? <small className="muted"> {t('webhooks.next', { time: f.time(d.nextAttemptDateTime) })}</small> : null}
                </>
              ),
            },
            { key: 'attempts', header: t('col.attempts'), num: true, cell: (d) => d.attempts },
            { key: 'lastAttempt', header: t('col.lastAttempt'), cell: (d) => (d.lastAttemptDateTime ? f.dateTime(d.lastAttemptDateTime) : '—') },
            {
              key: 'result',
              header: t('col.result'),
              cellClass: 'reason',
              cell: (d) => (
                <>
                  {d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : ''}
                  {d.lastError ? ` ${d.lastError}` : ''}
                  {problems[d.deliveryId] ? <FormProblem problem={problems[d.deliveryId]} /> : null}
                </>
              ),
            },
            {
              key: 'actions',
              header: t('col.actions'),
              cellClass: 'actions',
              cell: (d) =>
                d.status !== 'pending' ? (
                  <button type="button" className="secondary" onClick={() => void replay(d.deliveryId)} disabled={busy !== null} aria-busy={busy === d.deliveryId}>
                    {t('webhooks.replay')}
                  </button>
                ) : null,
            },
          ]}
        />
      )}
    </article>
  );
}
