import { useState } from 'react';
import { fieldError, type ProblemView } from '../../api/problem';
import { useFormat } from '../../shared/format';
import type { Translate } from '../../i18n';
import { terminalName } from '../../shared/salesLabels';
import type { Adjustment, Transaction } from '../../shared/sales';
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
        <table className="striped">
          <thead>
            <tr>
              <th scope="col">{t('col.settledAt')}</th>
              <th scope="col">{t('col.terminal')}</th>
              <th scope="col" className="num">{t('col.settledCount')}</th>
              <th scope="col" className="num">{t('col.cashTotal')}</th>
              <th scope="col" className="num">{t('col.deposited')}</th>
              <th scope="col">{t('col.counted')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.adjustmentId} data-adjustment-id={s.adjustmentId}>
                <td>{f.dateTime(s.adjustmentDateTime)}</td>
                <td>{terminalName(t, names, s.terminalId)}</td>
                <td className="num">{s.settledTransactionCount}</td>
                <td className="num">{f.yen(s.settledCashTotal)}</td>
                <td className="num">{f.yen(s.depositedBankMoney)}</td>
                <td>{s.realCashBalance !== null ? t('settlements.counted', { amount: f.yen(s.realCashBalance) }) : t('settlements.notCounted')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
