import { useCallback, useEffect, useMemo, useState } from 'react';
import { call, useApi, type Result } from '../../api/client';
import type { ProblemView } from '../../api/problem';
import { Badge } from '../../components/Badge';
import { DataTable } from '../../components/DataTable';
import { FormProblem } from '../../components/FormProblem';
import { Loading } from '../../components/LoadState';
import { transactionColumns } from '../../components/salesColumns';
import { ScreenHead } from '../../components/ScreenHead';
import { StorePicker } from '../../components/StorePicker';
import { useT } from '../../i18n';
import { navigate, type ScreenProps } from '../../router';
import { useFormat } from '../../shared/format';
import { dayFigures, transactionsOf, type Adjustment, type Terminal, type Transaction } from '../../shared/sales';
import { terminalName } from '../../shared/salesLabels';
import { pickStore, useStoreChoices } from '../../shared/stores';
import { saleDayRange } from '../../shared/zoned';
import { messages } from './i18n';
import './today.css';

/** Re-read the day this often while the screen is open (sales keep coming in). */
const REFRESH_MS = 60_000;

interface TodayData {
  terminals: Terminal[];
  transactions: Transaction[];
  settlements: Adjustment[];
  truncated: boolean;
  loadedAt: number;
}

type Api = ReturnType<typeof useApi>['api'];

/** The store's terminals, today's transactions (by sale time) and today's settlements, in parallel. */
async function loadDay(api: Api, contract: { contract_id: string }, storeId: string, date: string, zone: string): Promise<Result<TodayData>> {
  const range = saleDayRange(date, zone);
  const [terminals, transactions, settlements] = await Promise.all([
    call(api.GET('/{contract_id}/pos/terminals', { params: { path: contract, query: { store_id: storeId, limit: '1000' } } })),
    transactionsOf(api, contract, { store_id: storeId, 'terminal_tran_date_time-from': range.from, 'terminal_tran_date_time-to': range.to }),
    call(api.GET('/{contract_id}/pos/adjustments', { params: { path: contract, query: { store_id: storeId, adjustment_date: date, limit: '1000' } } })),
  ]);
  if (!terminals.ok) return terminals;
  if (!transactions.ok) return transactions;
  if (!settlements.ok) return settlements;
  return {
    ok: true,
    response: transactions.response,
    data: { terminals: terminals.data, transactions: transactions.data, settlements: settlements.data, truncated: !!transactions.truncated, loadedAt: Date.now() },
  };
}

/**
 * Today at a glance: sales so far by terminal and payment method, the terminals still open
 * (transactions not yet settled) and those unsettled transactions. `?store=ID` picks the store.
 */
export function TodayScreen({ query }: ScreenProps) {
  const t = useT(messages);
  const f = useFormat();
  const { api, contract } = useApi();
  const { stores, problem: storesProblem } = useStoreChoices();
  const store = pickStore(stores, query.get('store'));
  const today = f.today();
  const [data, setData] = useState<TodayData | null>(null);
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);

  const storeId = store?.storeId ?? null;
  const reload = useCallback(async () => {
    if (!storeId) return;
    setBusy(true);
    const result = await loadDay(api, contract, storeId, today, f.timeZone);
    setBusy(false);
    if (result.ok) {
      setData(result.data);
      setProblem(null);
    } else setProblem(result.problem);
  }, [api, contract, storeId, today, f.timeZone]);

  useEffect(() => {
    setData(null);
    void reload();
    const timer = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  const figures = useMemo(() => (data ? dayFigures(data.transactions) : null), [data]);
  const names = useMemo(() => new Map((data?.terminals ?? []).map((x) => [x.terminalId, x.terminalName])), [data]);
  const sales = transactionColumns(t, f, names);

  if (!stores) return <Loading />;

  // Every registered terminal of the store, plus any terminal id that sold today without being registered.
  const rows = data && figures ? terminalRows(data, figures.byTerminal) : [];
  const open = rows.filter((r) => r.status === 'open').length;

  return (
    <section className="today" aria-busy={busy}>
      <ScreenHead
        title={t('today.title')}
        sub={
          <p className="muted">
            {t('today.date', { date: f.date(today), zone: f.timeZone })}
            {data ? ` · ${t('today.updatedAt', { time: f.time(data.loadedAt) })}` : ''}
          </p>
        }
        tools={
          <>
            {stores.length && store ? (
              <StorePicker t={t} stores={stores} value={store.storeId} onChange={(id) => navigate(`/today?store=${encodeURIComponent(id)}`)} />
            ) : null}
            <button type="button" className="secondary" onClick={() => void reload()} disabled={busy}>
              {t('today.refresh')}
            </button>
          </>
        }
      />
      <FormProblem problem={storesProblem ?? problem} />
      {data?.truncated ? <p className="notice">{t('today.truncated')}</p> : null}

      {figures && data ? (
        <>
          <div className="grid today-figures">
            <article>
              <h2>{t('today.salesTotal')}</h2>
              <p className="figure" data-testid="today-total" data-value={figures.total}>
                {f.yen(figures.total)}
              </p>
              <p className="muted" data-testid="today-count" data-value={figures.sales}>
                {t('today.salesCount', { count: figures.sales, returns: figures.returns })}
              </p>
            </article>
            <article>
              <h2>{t('today.openTerminals')}</h2>
              <p className="figure" data-testid="today-open" data-value={open}>
                {t('today.openTerminalsValue', { open, all: rows.length })}
              </p>
            </article>
            <article>
              <h2>{t('today.unsettledCount')}</h2>
              <p className="figure" data-testid="today-unsettled-count" data-value={figures.unsettled.length}>
                {t('today.unsettledValue', { count: figures.unsettled.length })}
              </p>
            </article>
          </div>

          <div className="grid today-tables">
            <article>
              <h2>{t('today.byTerminal')}</h2>
              <DataTable
                className="striped"
                data-testid="today-terminals"
                rows={rows}
                rowKey={(r) => r.terminalId || 'none'}
                rowProps={(r) => ({ 'data-terminal-id': r.terminalId, 'data-status': r.status })}
                columns={[
                  { key: 'terminal', header: t('col.terminal'), rowHeader: true, cell: (r) => terminalName(t, names, r.terminalId) },
                  { key: 'status', header: t('col.status'), cell: (r) => <Badge status={r.status}>{t(`status.${r.status}`)}</Badge> },
                  { key: 'sales', header: t('col.sales'), num: true, cell: (r) => r.sales, cellProps: (r) => ({ 'data-value': r.sales }) },
                  { key: 'total', header: t('col.total'), num: true, cell: (r) => f.yen(r.total), cellProps: (r) => ({ 'data-value': r.total }) },
                  { key: 'unsettled', header: t('col.unsettled'), num: true, cell: (r) => r.unsettled, cellProps: (r) => ({ 'data-value': r.unsettled }) },
                  { key: 'lastSettlement', header: t('col.lastSettlement'), cell: (r) => (r.lastSettlement ? f.time(r.lastSettlement) : '—') },
                ]}
              />
            </article>
            <article>
              <h2>{t('today.byPayment')}</h2>
              <DataTable
                className="striped"
                data-testid="today-payments"
                rows={figures.payments}
                rowKey={(p) => p.key}
                rowProps={(p) => ({ 'data-payment': p.key })}
                columns={[
                  { key: 'method', header: t('col.method'), rowHeader: true, cell: (p) => p.name ?? t(`payment.${p.key as 'cash' | 'credit' | 'tipCash' | 'tipCredit'}`) },
                  { key: 'amount', header: t('col.amount'), num: true, cell: (p) => f.yen(p.amount), cellProps: (p) => ({ 'data-value': p.amount }) },
                ]}
              />
            </article>
          </div>

          <article>
            <h2>{t('today.unsettled')}</h2>
            {figures.unsettled.length ? (
              <DataTable
                className="striped"
                data-testid="today-unsettled"
                rows={figures.unsettled}
                rowKey={(x) => x.transactionHeadId}
                rowProps={(x) => ({ 'data-transaction-id': x.transactionHeadId })}
                columns={[
                  sales.time,
                  sales.terminal,
                  sales.id,
                  sales.division,
                  { key: 'amount', header: t('col.amount'), num: true, cell: (x) => f.yen(x.total), cellProps: (x) => ({ 'data-value': x.total }) },
                ]}
              />
            ) : (
              <p>{figures.sales ? t('today.noUnsettled') : t('today.noSales')}</p>
            )}
          </article>

          <details>
            <summary>{t('today.definitions')}</summary>
            <ul>
              <li>{t('today.def.sales')}</li>
              <li>{t('today.def.payments')}</li>
              <li>{t('today.def.open')}</li>
              <li>{t('today.def.unsettled')}</li>
            </ul>
          </details>
        </>
      ) : !problem ? (
        <Loading />
      ) : null}
    </section>
  );
}

type TerminalStatus = 'open' | 'settled' | 'idle' | 'stopped';

interface TerminalRow {
  terminalId: string;
  status: TerminalStatus;
  sales: number;
  total: string;
  unsettled: number;
  lastSettlement: string | null;
}

/**
 * One row per terminal: open while it has unsettled transactions today; settled when it had
 * transactions and all are settled; idle without any; stopped when not in use (useStopDivision 1)
 * and idle. A terminal id that sold but is not registered still gets its row.
 */
function terminalRows(data: TodayData, byTerminal: ReturnType<typeof dayFigures>['byTerminal']): TerminalRow[] {
  const sold = new Map(byTerminal.map((b) => [b.terminalId, b]));
  const touched = new Set(data.transactions.map((x) => x.terminalId ?? ''));
  const lastSettlement = new Map<string, string>();
  for (const s of data.settlements) {
    const seen = lastSettlement.get(s.terminalId);
    if (!seen || Date.parse(s.adjustmentDateTime) > Date.parse(seen)) lastSettlement.set(s.terminalId, s.adjustmentDateTime);
  }
  const ids = [...new Set([...data.terminals.map((x) => x.terminalId), ...sold.keys()])];
  const stopped = new Set(data.terminals.filter((x) => x.useStopDivision === '1').map((x) => x.terminalId));
  return ids.map((terminalId) => {
    const b = sold.get(terminalId);
    const unsettled = b?.unsettled ?? 0;
    const status: TerminalStatus = unsettled > 0 ? 'open' : touched.has(terminalId) ? 'settled' : stopped.has(terminalId) ? 'stopped' : 'idle';
    return { terminalId, status, sales: b?.sales ?? 0, total: b?.total ?? '0', unsettled, lastSettlement: lastSettlement.get(terminalId) ?? null };
  });
}
