import { useCallback, useState } from 'react';
import { call, useApi, type paths } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { FormProblem } from '../../components/FormProblem';
import { useFormat } from '../../shared/format';
import { useLang, useT, type Translate } from '../../i18n';
import type { ScreenProps } from '../../router';
import { DeadLetters, type DeadLetter } from './DeadLetters';
import { Deliveries, DELIVERIES_SHOWN, type Delivery, type DeliveryStatus } from './Deliveries';
import { messages } from './i18n';
import { usePolling } from '../../shared/polling';
import { duration, skew } from './duration';
import './sync.css';

type SyncStatus = paths['/{contract_id}/pos/sync/status']['get']['responses'][200]['content']['application/json'];
type StoreStatus = Extract<SyncStatus, { role: 'store' }>;
type CentralStatus = Extract<SyncStatus, { role: 'central' }>;

/** How often the screen asks again (the store's own server answers; central being down does not slow it). */
export const SYNC_REFRESH_MS = 3000;

/**
 * Sync with head office: online or offline (or not linked), the outbox waiting to be sent, the
 * last push and pull, the clock difference, dead letters (retry, discard) and webhook deliveries
 * (replay). Everything is read again every few seconds.
 */
export function SyncScreen(_props: ScreenProps) {
  const t = useT(messages);
  const f = useFormat();
  const { api, contract } = useApi();
  const [status, setStatus] = useState<SyncStatus | null>(null);
  const [letters, setLetters] = useState<DeadLetter[]>([]);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [deliveryStatus, setDeliveryStatus] = useState<DeliveryStatus | ''>('');
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [loadedAt, setLoadedAt] = useState<number | null>(null);

  const load = useCallback(async () => {
    const [s, d, w] = await Promise.all([
      call(api.GET('/{contract_id}/pos/sync/status', { params: { path: contract } })),
      call(api.GET('/{contract_id}/pos/sync/dead_letters', { params: { path: contract, query: { status: 'open' } } })),
      call(
        api.GET('/{contract_id}/pos/webhook_deliveries', {
          params: { path: contract, query: { limit: String(DELIVERIES_SHOWN), ...(deliveryStatus ? { status: deliveryStatus } : {}) } },
        }),
      ),
    ]);
    const failed = [s, d, w].find((r) => !r.ok);
    setProblem(failed && !failed.ok ? failed.problem : null);
    if (s.ok) setStatus(s.data);
    if (d.ok) setLetters(d.data);
    if (w.ok) setDeliveries(w.data);
    setLoadedAt(Date.now());
  }, [api, contract, deliveryStatus]);

  usePolling(load, SYNC_REFRESH_MS, deliveryStatus);

  const state = !status ? null : status.role === 'central' ? 'central' : !status.linked ? 'unlinked' : status.online ? 'online' : 'offline';

  return (
    <section className="sync">
      <header className="screen-head">
        <div>
          <h1>{t('sync.title')}</h1>
          {loadedAt ? <p className="muted">{t('sync.autoRefresh', { seconds: SYNC_REFRESH_MS / 1000, time: f.time(loadedAt) })}</p> : null}
        </div>
        <div className="screen-tools">
          <button type="button" className="secondary" onClick={() => void load()}>
            {t('sync.refresh')}
          </button>
        </div>
      </header>
      <FormProblem problem={problem} />
      {!status || !state ? (
        !problem ? <p aria-busy="true">{t('common.loading')}</p> : null
      ) : (
        <>
          <article className={`sync-state sync-${state}`}>
            <p role="status" aria-live="polite" data-testid="sync-state" data-state={state}>
              <span className={`badge badge-${state}`}>{t(`sync.state.${state}`)}</span>{' '}
              {state === 'central' ? t('sync.centralRole') : t(`sync.${state}`)}
            </p>
          </article>
          {status.role === 'store' ? <StorePanel t={t} status={status} /> : <CentralPanel t={t} status={status} />}
          <DeadLetters t={t} letters={letters} elsewhere={Math.max(0, status.deadLetters - letters.length)} onChanged={load} />
          <Deliveries t={t} deliveries={deliveries} status={deliveryStatus} onStatus={setDeliveryStatus} onChanged={load} />
        </>
      )}
    </section>
  );
}

type T = Translate<keyof (typeof messages)['ja']>;

function StorePanel({ t, status }: { t: T; status: StoreStatus }) {
  const f = useFormat();
  const { lang } = useLang();
  const when = (iso: string | null) => (iso ? f.dateTime(iso) : t('sync.never'));
  return (
    <article>
      <dl className="sync-figures" data-testid="sync-figures">
        <div>
          <dt>{t('sync.outboxDepth')}</dt>
          <dd data-testid="outbox-depth" data-value={status.outboxDepth}>
            {t('sync.records', { count: status.outboxDepth })}
          </dd>
        </div>
        <div>
          <dt>{t('sync.outboxOldest')}</dt>
          <dd data-testid="outbox-oldest">
            {status.outboxOldestAgeMs === null ? t('sync.none') : t('sync.ageValue', { age: duration(status.outboxOldestAgeMs, lang) })}
          </dd>
        </div>
        <div>
          <dt>{t('sync.lastPush')}</dt>
          <dd data-testid="last-push">{when(status.lastPushAt)}</dd>
        </div>
        <div>
          <dt>{t('sync.lastPull')}</dt>
          <dd data-testid="last-pull">{when(status.lastPullAt)}</dd>
        </div>
        <div>
          <dt>{t('sync.clockSkew')}</dt>
          <dd data-testid="clock-skew">
            {status.clockSkewMs === null ? t('sync.never') : skew(status.clockSkewMs, lang)}
            {status.clockSkewWarning ? <strong className="warn"> {t('sync.clockSkewWarning')}</strong> : null}
          </dd>
        </div>
        <div>
          <dt>{t('sync.deadLetterCount')}</dt>
          <dd data-testid="dead-letter-count">{t('sync.records', { count: status.deadLetters })}</dd>
        </div>
        <div>
          <dt>{t('sync.centralUrl')}</dt>
          <dd>{status.centralUrl ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('sync.node')}</dt>
          <dd>{status.node}</dd>
        </div>
      </dl>
      {status.linked && !status.online && status.lastError ? (
        <p className="sync-error" data-testid="last-error">
          <strong>{t('sync.lastError')}</strong> ({when(status.lastAttemptAt)}): {status.lastError}
        </p>
      ) : null}
    </article>
  );
}

function CentralPanel({ t, status }: { t: T; status: CentralStatus }) {
  const f = useFormat();
  const when = (iso: string | null) => (iso ? f.dateTime(iso) : t('sync.never'));
  return (
    <article>
      <h2>{t('sync.nodes')}</h2>
      <p className="muted">
        {t('sync.changeLogSeq')}: {status.changeLogSeq}
      </p>
      <table className="striped">
        <thead>
          <tr>
            <th scope="col">{t('col.node')}</th>
            <th scope="col">{t('col.name')}</th>
            <th scope="col">{t('col.status')}</th>
            <th scope="col" className="num">{t('sync.highWater')}</th>
            <th scope="col">{t('sync.lastPush')}</th>
            <th scope="col">{t('sync.lastPull')}</th>
          </tr>
        </thead>
        <tbody>
          {status.nodes.map((n) => (
            <tr key={n.node}>
              <td>{n.node}</td>
              <td>{n.name ?? '—'}</td>
              <td>{n.revoked ? t('sync.revoked') : t('sync.active')}</td>
              <td className="num">{n.highWater}</td>
              <td>{when(n.lastPushAt)}</td>
              <td>{when(n.lastPullAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
