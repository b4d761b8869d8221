import { useState } from 'react';
import { call, useApi } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import type { components } from '../../api/schema';
import { FormProblem } from '../../components/FormProblem';
import { useFormat } from '../../shared/format';
import type { Translate } from '../../i18n';
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
        <table className="striped">
          <caption className="muted">{t('webhooks.shown', { count: DELIVERIES_SHOWN })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('col.id')}</th>
              <th scope="col">{t('col.event')}</th>
              <th scope="col">{t('col.url')}</th>
              <th scope="col">{t('col.status')}</th>
              <th scope="col" className="num">{t('col.attempts')}</th>
              <th scope="col">{t('col.lastAttempt')}</th>
              <th scope="col">{t('col.result')}</th>
              <th scope="col">{t('col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.deliveryId} data-delivery-id={d.deliveryId} data-status={d.status}>
                <td>{d.deliveryId}</td>
                <td>
                  {d.event}
                  {d.action ? ` (${d.action})` : ''}
                </td>
                <td className="url" title={d.url}>
                  {d.url}
                </td>
                <td>
                  <span className={`badge badge-${d.status}`}>{t(`webhooks.status.${d.status}`)}</span>
                  {d.nextAttemptDateTime ? <small className="muted"> {t('webhooks.next', { time: f.time(d.nextAttemptDateTime) })}</small> : null}
                </td>
                <td className="num">{d.attempts}</td>
                <td>{d.lastAttemptDateTime ? f.dateTime(d.lastAttemptDateTime) : '—'}</td>
                <td className="reason">
                  {d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : ''}
                  {d.lastError ? ` ${d.lastError}` : ''}
                  {problems[d.deliveryId] ? <FormProblem problem={problems[d.deliveryId]} /> : null}
                </td>
                <td className="actions">
                  {d.status !== 'pending' ? (
                    <button type="button" className="secondary" onClick={() => void replay(d.deliveryId)} disabled={busy !== null} aria-busy={busy === d.deliveryId}>
                      {t('webhooks.replay')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
