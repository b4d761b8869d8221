import { useCallback, useEffect, useMemo, useState } from 'react';
import { call, useApi } from '../../api/client';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { FormProblem } from '../../components/FormProblem';
import { Loading } from '../../components/LoadState';
import { StorePicker } from '../../components/StorePicker';
import { useT, type Translate } from '../../i18n';
import { navigate, type ScreenProps } from '../../router';
import { useFormat } from '../../shared/format';
import { fromUnits, sumUnits } from '../../shared/money';
import { cashEffect } from '../../shared/sales';
import { pickStore, useStoreChoices, type Store } from '../../shared/stores';
import { isIsoDate } from '../../shared/zoned';
import { CASH_FIELDS, CashCount, type CashInfo } from './CashCount';
import { loadClosingDay, type ClosingDay } from './data';
import { messages } from './i18n';
import { Report, TransactionTable } from './Report';
import { Settlements, Unsettled } from './Settlements';
import './closing.css';

/**
 * The daily closing of the back office (spec 4.15; the admin-screen closing stores with cash
 * drawer management must use): pick a store and date; before closing, the settled transactions
 * it closes, the unsettled ones it would leave out (settle them here), the cash count with the
 * over/short computed live, then the closing call; once closed, the day's report (printable)
 * and the release. `?store=ID&date=YYYY-MM-DD`.
 */
export function ClosingScreen({ query }: ScreenProps) {
  const t = useT(messages);
  const f = useFormat();
  const { api, contract } = useApi();
  const { stores, problem: storesProblem } = useStoreChoices();
  const store = pickStore(stores, query.get('store'));
  const today = f.today();
  const date = isIsoDate(query.get('date')) ? query.get('date')! : today;
  const [day, setDay] = useState<ClosingDay | null>(null);
  const [loadProblem, setLoadProblem] = useState<ProblemView | null>(null);
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A new form (empty counts) for each loaded day; a refused closing keeps what was typed.
  const [version, setVersion] = useState(0);

  const storeId = store?.storeId ?? null;
  const reload = useCallback(async () => {
    if (!storeId) return;
    const result = await loadClosingDay(api, contract, storeId, date, f.timeZone);
    if (result.ok) {
      setDay(result.data);
      setLoadProblem(null);
      setVersion((v) => v + 1);
    } else setLoadProblem(result.problem);
  }, [api, contract, storeId, date, f.timeZone]);

  useEffect(() => {
    setDay(null);
    setProblem(null);
    setNotice(null);
    void reload();
  }, [reload]);

  const go = (next: { store?: string; date?: string }) =>
    navigate(`/closing?store=${encodeURIComponent(next.store ?? storeId ?? '')}&date=${encodeURIComponent(next.date ?? date)}`);

  const names = useMemo(() => new Map((day?.terminals ?? []).map((x) => [x.terminalId, x.terminalName])), [day]);
  const cashEffects = useMemo(() => fromUnits(sumUnits((day?.toClose ?? []).map(cashEffect))), [day]);

  const run = async (action: () => Promise<{ ok: true } | { ok: false; problem: ProblemView }>, done: string) => {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    const result = await action();
    setBusy(false);
    if (!result.ok) {
      setProblem(result.problem);
      return;
    }
    setNotice(done);
    await reload();
  };

  const close = (cashInfo: CashInfo | null) =>
    run(
      () => call(api.POST('/{contract_id}/pos/daily_summaries', { params: { path: contract }, body: { sumDate: date, storeId: storeId!, ...(cashInfo ? { cashInfo } : {}) } })),
      t('closing.done', { date: f.date(date) }),
    );
  const release = () => {
    if (!window.confirm(t('closing.confirmRelease', { date: f.date(date) }))) return;
    void run(
      () => call(api.POST('/{contract_id}/pos/daily_summaries/{store_id}/{sum_date}/release', { params: { path: { ...contract, store_id: storeId!, sum_date: date } } })),
      t('closing.released', { date: f.date(date) }),
    );
  };

  if (!stores) return <Loading />;

  return (
    <section className="closing">
      <header className="screen-head no-print">
        <h1>{t('closing.title')}</h1>
        <div className="screen-tools">
          {store ? <StorePicker t={t} stores={stores} value={store.storeId} onChange={(id) => go({ store: id })} error={fieldError(problem, 'storeId')} /> : null}
          <Field
            label={t('closing.date')}
            name="sumDate"
            type="date"
            max={today}
            value={date}
            onChange={(e) => isIsoDate(e.target.value) && go({ date: e.target.value })}
            error={fieldError(problem, 'sumDate')}
          />
        </div>
      </header>
      <FormProblem problem={storesProblem ?? loadProblem} />
      {notice ? (
        <p role="status" className="notice no-print" data-testid="closing-notice">
          {notice}
        </p>
      ) : null}
      {store ? <StoreNotes t={t} store={store} /> : null}

      {!day || !store ? (
        !loadProblem ? <Loading /> : null
      ) : day.summary ? (
        <>
          <FormProblem problem={problem} shown={['storeId', 'sumDate']} />
          <p className="no-print" data-testid="closing-state" data-state="closed">{t('closing.closedNotice', { date: f.date(date) })}</p>
          <Report t={t} summary={day.summary} storeName={store.storeName} names={names} closed={day.closed} busy={busy} onRelease={release} />
        </>
      ) : (
        <>
          <p data-testid="closing-state" data-state="open">{t('closing.openNotice', { date: f.date(date) })}</p>
          <FormProblem problem={problem} shown={['storeId', 'sumDate', ...CASH_FIELDS, 'terminalId']} />
          <Unsettled t={t} store={store} rows={day.unsettled} names={names} busy={busy} problem={problem} onSettle={(terminalId, label, count) =>
            run(
              () => call(api.POST('/{contract_id}/pos/adjustments', { params: { path: contract }, body: { storeId: store.storeId, terminalId } })),
              t('unsettled.settled', { terminal: label, count }),
            )
          } />
          {store.division === '2' ? null : (
            <CashCount
              key={`${store.storeId}:${date}:${version}`}
              t={t}
              store={store}
              settlements={day.settlements}
              cashEffects={cashEffects}
              date={date}
              problem={problem}
              busy={busy}
              onSubmit={(cashInfo) => void close(cashInfo)}
            />
          )}
          <article>
            <h2>{t('toClose.title')}</h2>
            <p className="muted">
              {t('toClose.hint', { date: f.date(date) })}{' '}
              <span data-testid="to-close-summary" data-count={day.toClose.length} data-cash={cashEffects}>
                {t('toClose.summary', { count: day.toClose.length, cash: f.yen(cashEffects) })}
              </span>
            </p>
            {day.toClose.length ? <TransactionTable t={t} rows={day.toClose} names={names} cash={(x) => fromUnits(cashEffect(x))} /> : <p>{t('toClose.none')}</p>}
          </article>
          <Settlements t={t} rows={day.settlements} names={names} />
        </>
      )}
    </section>
  );
}

/** What the store's settings mean for its closing. */
function StoreNotes({ t, store }: { t: Translate<keyof (typeof messages)['ja']>; store: Store }) {
  if (store.division === '2') return <p className="notice">{t('closing.notClosable')}</p>;
  return (
    <>
      {store.closingMethod === '1' ? <p className="notice no-print">{t('closing.autoStore', { time: store.closingTime })}</p> : null}
      {store.cashDrawerDivision === '1' ? <p className="notice no-print">{t('closing.drawerStore')}</p> : null}
    </>
  );
}
