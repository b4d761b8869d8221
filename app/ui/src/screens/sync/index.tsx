import { useCallback, useState } from 'react';
import { call, useApi, type paths } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { Badge } from '../../components/Badge';
import { DataTable } from '../../components/DataTable';
import { Facts } from '../../components/Facts';
import { FormProblem } from '../../components/FormProblem';
import { Loading } from '../../components/LoadState';
import { ScreenHead } from '../../components/ScreenHead';
import { useLang, useT, type Translate } from '../../i18n';
import type { ScreenProps } from '../../router';
import { useFormat } from '../../shared/format';
import { usePolling } from '../../shared/polling';
import { DeadLetters, type DeadLetter } from './DeadLetters';
import { Deliveries, DELIVERIES_SHOWN, type Delivery, type DeliveryStatus } from './Deliveries';
import { duration, skew } from './duration';
import { messages } from './i18n';
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
      <ScreenHead
        title={t('sync.title')}
        sub={loadedAt ? <p className="muted">{t('sync.autoRefresh', { seconds: SYNC_REFRESH_MS / 1000, time: f.time(loadedAt) })}</p> : null}
        tools={
          <button type="button" className="secondary" onClick={() => void load()}>
            {t('sync.refresh')}
          </button>
        }
      />
      <FormProblem problem={problem} />
      {!status || !state ? (
        !problem ? <Loading /> : null
      ) : (
        <>
          <article className={`sync-state sync-${state}`}>
            <p role="status" aria-live="polite" data-testid="sync-state" data-state={state}>
              <Badge status={state}>{t(`sync.state.${state}`)}</Badge>{' '}
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
      <Facts
        className="sync-figures"
        testId="sync-figures"
        items={[
          { label: t('sync.outboxDepth'), value: t('sync.records', { count: status.outboxDepth }), valueProps: { 'data-testid': 'outbox-depth', 'data-value': status.outboxDepth } },
          {
            label: t('sync.outboxOldest'),
            value: status.outboxOldestAgeMs === null ? t('sync.none') : t('sync.ageValue', { age: duration(status.outboxOldestAgeMs, lang) }),
            valueProps: { 'data-testid': 'outbox-oldest' },
          },
          { label: t('sync.lastPush'), value: when(status.lastPushAt), valueProps: { 'data-testid': 'last-push' } },
          { label: t('sync.lastPull'), value: when(status.lastPullAt), valueProps: { 'data-testid': 'last-pull' } },
          {
            label: t('sync.clockSkew'),
            value: (
              <>
                {status.clockSkewMs === null ? t('sync.never') : skew(status.clockSkewMs, lang)}
                {status.clockSkewWarning ? <strong className="warn"> {t('sync.clockSkewWarning')}</strong> : null}
              </>
            ),
            valueProps: { 'data-testid': 'clock-skew' },
          },
          { label: t('sync.deadLetterCount'), value: t('sync.records', { count: status.deadLetters }), valueProps: { 'data-testid': 'dead-letter-count' } },
          { label: t('sync.centralUrl'), value: status.centralUrl ?? '—' },
          { label: t('sync.node'), value: status.node },
        ]}
      />
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
      <DataTable
        className="striped"
        rows={status.nodes}
        rowKey={(n) => n.node}
        columns={[
          { key: 'node', header: t('col.node'), cell: (n) => n.node },
          { key: 'name', header: t('col.name'), cell: (n) => n.name ?? '—' },
          { key: 'status', header: t('col.status'), cell: (n) => (n.revoked ? t('sync.revoked') : t('sync.active')) },
          { key: 'highWater', header: t('sync.highWater'), num: true, cell: (n) => n.highWater },
          { key: 'lastPush', header: t('sync.lastPush'), cell: (n) => when(n.lastPushAt) },
          { key: 'lastPull', header: t('sync.lastPull'), cell: (n) => when(n.lastPullAt) },
        ]}
      />
    </article>
  );
}
