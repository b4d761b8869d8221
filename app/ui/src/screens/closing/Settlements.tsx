import { useState } from 'react';
import { fieldError, type ProblemView } from '../../api/problem';
import { DataTable } from '../../components/DataTable';
import type { Translate } from '../../i18n';
import { useFormat } from '../../shared/format';
import type { Adjustment, Transaction } from '../../shared/sales';
import { terminalName } from '../../shared/salesLabels';
import type { Store } from '../../shared/stores';
import type { messages } from './i18n';

type Key = keyof (typeof messages)['ja'];

/**
 * Unsettled transactions on or before the date, by terminal: the closing leaves them out. A
 * terminal can be settled from here (POST /adjustments) when the store does not count cash at
 * settlement; otherwise the count belongs to the register.
 */
export function Unsettled({
  t,
  store,
  rows,
  names,
  busy,
  problem,
  onSettle,
}: {
  t: Translate<Key>;
  store: Store;
  rows: Transaction[];
  names: ReadonlyMap<string, string>;
  busy: boolean;
  problem: ProblemView | null;
  onSettle: (terminalId: string, label: string, count: number) => Promise<void>;
}) {
  const [settling, setSettling] = useState<string | null>(null);
  if (!rows.length) return null;
  const byTerminal = new Map<string, number>();
  for (const x of rows) byTerminal.set(x.terminalId ?? '', (byTerminal.get(x.terminalId ?? '') ?? 0) + 1);
  const canSettle = store.cashInputAtSettlement !== '1';
  const error = fieldError(problem, 'terminalId') ?? fieldError(problem, 'storeId');
  return (
    <article className="closing-unsettled no-print" data-testid="unsettled">
      <h2>{t('unsettled.title')}</h2>
      <p>{t('unsettled.body', { count: rows.length })}</p>
      {canSettle ? null : <p className="muted">{t('unsettled.atRegister')}</p>}
      <ul>
        {[...byTerminal.entries()].map(([terminalId, count]) => {
          const label = terminalName(t, names, terminalId || null);
          return (
            <li key={terminalId || 'none'} data-terminal-id={terminalId}>
              {label}: {count}{' '}
              {canSettle && names.has(terminalId) ? (
                <>
                  <button
                    type="button"
                    className="secondary"
                    disabled={busy}
                    aria-busy={busy && settling === terminalId}
                    onClick={() => {
                      setSettling(terminalId);
                      void onSettle(terminalId, label, count);
                    }}
                  >
                    {t('unsettled.settle', { terminal: label })}
                  </button>
                  {settling === terminalId && error ? (
                    <small className="field-error" role="alert">
                      {error}
                    </small>
                  ) : null}
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
    </article>
  );
}

/** The store's settlements that wait for a closing: when, which terminal, what they settled and counted. */
export function Settlements({ t, rows, names }: { t: Translate<Key>; rows: Adjustment[]; names: ReadonlyMap<string, string> }) {
  const f = useFormat();
  return (
    <article data-testid="settlements">
      <h2>{t('settlements.title')}</h2>
      {rows.length === 0 ? (
        <p>{t('settlements.none')}</p>
      ) : (
        <DataTable
          className="striped"
          rows={rows}
          rowKey={(s) => s.adjustmentId}
          rowProps={(s) => ({ 'data-adjustment-id': s.adjustmentId })}
          columns={[
            { key: 'settledAt', header: t('col.settledAt'), cell: (s) => f.dateTime(s.adjustmentDateTime) },
            { key: 'terminal', header: t('col.terminal'), cell: (s) => terminalName(t, names, s.terminalId) },
            { key: 'count', header: t('col.settledCount'), num: true, cell: (s) => s.settledTransactionCount },
            { key: 'cash', header: t('col.cashTotal'), num: true, cell: (s) => f.yen(s.settledCashTotal) },
            { key: 'deposited', header: t('col.deposited'), num: true, cell: (s) => f.yen(s.depositedBankMoney) },
            {
              key: 'counted',
              header: t('col.counted'),
              cell: (s) => (s.realCashBalance !== null ? t('settlements.counted', { amount: f.yen(s.realCashBalance) }) : t('settlements.notCounted')),
            },
          ]}
        />
      )}
    </article>
  );
}
