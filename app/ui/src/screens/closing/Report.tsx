import type { components } from '../../api/schema';
import { DataTable, type Column } from '../../components/DataTable';
import { transactionColumns } from '../../components/salesColumns';
import type { Translate } from '../../i18n';
import { useFormat } from '../../shared/format';
import { fromUnits, toUnits } from '../../shared/money';
import type { Transaction } from '../../shared/sales';
import { terminalName } from '../../shared/salesLabels';
import { DENOMINATIONS } from './cash';
import type { Summary } from './data';
import type { messages } from './i18n';

type Key = keyof (typeof messages)['ja'];
type Figures = components['schemas']['DailySummaryReportFigures'];

/**
 * The day's report of a closing as the server stored it (GET /daily_summaries/{store}/{date}
 * `report`): cash, sales from gross to net, tax per rate, payment methods, counts, cash moves and
 * per terminal. Printable: the print CSS (closing.css) prints this article alone.
 */
export function Report({
  t,
  summary,
  storeName,
  names,
  closed,
  busy,
  onRelease,
}: {
  t: Translate<Key>;
  summary: Summary;
  storeName: string;
  names: ReadonlyMap<string, string>;
  closed: Transaction[];
  busy: boolean;
  onRelease: () => void;
}) {
  const f = useFormat();
  const r = summary.report.store;
  const y = (v: string) => f.yen(v);
  const line = (label: string, value: string, testId?: string, strong = false) => (
    <tr data-testid={testId} data-value={value}>
      <th scope="row">{label}</th>
      <td className="num">{strong ? <strong>{y(value)}</strong> : y(value)}</td>
    </tr>
  );
  const d = r.sales.discounts;
  return (
    <article className="closing-report" data-testid="closing-report">
      <header className="screen-head">
        <div>
          <h2>{t('report.title')}</h2>
          <p>
            <strong>{t('report.heading', { store: storeName, date: f.date(summary.sumDate) })}</strong>
          </p>
          <p className="muted">
            {t('report.closedAt')}: {f.dateTime(summary.closedDateTime)} · {t('report.method')}: {t(`report.method.${summary.closingMethod}`)} ·{' '}
            {t('report.transactions')}: <span data-testid="report-count">{summary.transactionCount}</span> · {t('report.terminals')}:{' '}
            {summary.terminalIdList.map((id) => terminalName(t, names, id)).join(', ') || '—'}
          </p>
        </div>
        <div className="screen-tools no-print">
          <button type="button" className="secondary" onClick={() => window.print()}>
            {t('report.print')}
          </button>
          <button type="button" className="contrast outline" onClick={onRelease} disabled={busy} aria-busy={busy} data-testid="release">
            {t('report.release')}
          </button>
        </div>
      </header>

      <div className="report-grid">
        <section>
          <h3>{t('report.sales')}</h3>
          <table>
            <tbody>
              {line(t('report.grossSales'), r.sales.grossSales, 'report-gross')}
              {line(`− ${t('report.returns')}`, r.sales.returns)}
              {line(`− ${t('report.discountLine')}`, d.line)}
              {line(`− ${t('report.discountSubtotal')}`, d.subtotal)}
              {line(`− ${t('report.discountPoint')}`, d.point)}
              {line(`− ${t('report.discountCoupon')}`, d.coupon)}
              {line(`− ${t('report.discountRounding')}`, d.rounding)}
              {line(t('report.netSales'), r.sales.netSales, 'report-net', true)}
              {line(`+ ${t('report.taxExcluded')}`, r.sales.taxExcluded)}
              {line(`+ ${t('report.commission')}`, r.sales.commission)}
              {line(`+ ${t('report.carriage')}`, r.sales.carriage)}
              {line(`− ${t('report.taxFree')}`, r.sales.taxFree)}
              {line(t('report.total'), r.sales.total, 'report-total', true)}
              {line(t('report.returnCancelTotal'), r.sales.returnCancelTotal)}
              {line(t('report.cancelledTotal'), r.sales.cancelledTotal)}
              {line(t('report.nonTaxable'), r.sales.nonTaxableSales)}
            </tbody>
          </table>
        </section>

        <section>
          <h3>{t('report.cash')}</h3>
          <p className="muted">{t(`report.cashSource.${summary.cashSource}`)}</p>
          <table>
            <tbody>
              {line(t('calc.preparationCash'), summary.preparationCash)}
              {line(`+ ${t('report.cashSales')}`, summary.cashSalesTotal)}
              {line(`= ${t('report.computed')}`, summary.computedCashBalance, 'report-computed')}
              {line(t('report.real'), summary.realCashBalance, 'report-real')}
              {line(`+ ${t('report.deposited')}`, summary.depositedBankMoney)}
              {line(t('report.overShort'), summary.overShort, 'report-over-short', true)}
              {line(t('report.saving'), summary.saving)}
              {line(t('report.carryOver'), summary.carryOverReserve)}
            </tbody>
          </table>
          {summary.cashInfo ? (
            <table className="report-counts">
              <caption>{t('report.counts')}</caption>
              <tbody>
                {DENOMINATIONS.map(([name, face]) => (
                  <tr key={name}>
                    <th scope="row">{t('cash.yen', { yen: face.toLocaleString('ja-JP') })}</th>
                    <td className="num">{summary.cashInfo![name]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>

        <section>
          <h3>{t('report.payments')}</h3>
          <table data-testid="report-payments">
            <tbody>
              {line(t('payment.cash'), r.payments.cash, 'report-cash')}
              {line(t('payment.credit'), r.payments.credit)}
              {r.payments.others.map((o) => (
                <tr key={o.paymentMethodId}>
                  <th scope="row">{o.paymentMethodName ?? o.paymentMethodCode ?? o.paymentMethodId}</th>
                  <td className="num">{y(o.amount)}</td>
                </tr>
              ))}
              {line(t('payment.tipCash'), r.payments.tipCash)}
              {line(t('payment.tipCredit'), r.payments.tipCredit)}
            </tbody>
          </table>
          <h3>{t('report.countsTitle')}</h3>
          <table data-testid="report-counts">
            <tbody>
              {(['sales', 'returns', 'returnCancels', 'cancelled', 'deposits', 'withdrawals', 'custodyMoney', 'custodyRefunds'] as const).map((k) => (
                <tr key={k} data-testid={`report-count-${k}`} data-value={r.counts[k]}>
                  <th scope="row">{t(`report.count.${k}`)}</th>
                  <td className="num">{r.counts[k]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>

      <section>
        <h3>{t('report.taxes')}</h3>
        {r.taxes.length ? (
          <DataTable
            data-testid="report-taxes"
            rows={r.taxes}
            rowKey={(x) => x.taxRate}
            rowProps={(x) => ({ 'data-tax-rate': x.taxRate })}
            columns={[
              { key: 'rate', header: t('report.taxRate'), rowHeader: true, cell: (x) => <>{x.taxRate}%</> },
              { key: 'includedSales', header: t('report.taxIncludedSales'), num: true, cell: (x) => y(x.taxIncludedSales) },
              { key: 'included', header: t('report.taxIncluded'), num: true, cell: (x) => y(x.taxIncluded) },
              { key: 'excludedSales', header: t('report.taxExcludedSales'), num: true, cell: (x) => y(x.taxExcludedSales) },
              { key: 'excluded', header: t('report.taxExcludedAmount'), num: true, cell: (x) => y(x.taxExcluded) },
              { key: 'base', header: t('report.taxableBase'), num: true, cell: (x) => y(x.taxableBase) },
              { key: 'tax', header: t('report.tax'), num: true, cell: (x) => y(x.tax), cellProps: (x) => ({ 'data-value': x.tax }) },
            ]}
          />
        ) : (
          <p>{t('report.noTaxes')}</p>
        )}
      </section>

      <section>
        <h3>{t('report.byTerminal')}</h3>
        <DataTable
          rows={summary.report.terminals}
          rowKey={(x) => x.terminalId}
          columns={[
            { key: 'terminal', header: t('col.terminal'), rowHeader: true, cell: (x) => terminalName(t, names, x.terminalId) },
            { key: 'sales', header: t('col.sales'), num: true, cell: (x) => x.counts.sales },
            { key: 'total', header: t('report.total'), num: true, cell: (x) => y(x.sales.total) },
            { key: 'cash', header: t('payment.cash'), num: true, cell: (x) => y(x.payments.cash) },
            { key: 'credit', header: t('payment.credit'), num: true, cell: (x) => y(x.payments.credit) },
            { key: 'moves', header: t('report.cashMoves'), num: true, cell: (x) => y(cashMoves(x)) },
          ]}
        />
      </section>

      <details className="no-print">
        <summary>
          {t('report.closedTransactions')} ({closed.length})
        </summary>
        <TransactionTable t={t} rows={closed} names={names} />
      </details>
    </article>
  );
}

/** Deposits and custody money in, withdrawals and custody refunds out (as the cash effect counts them). */
function cashMoves(x: Figures): string {
  const m = x.cashMoves;
  return fromUnits(toUnits(m.deposits) + toUnits(m.custodyMoney) - toUnits(m.withdrawals) - toUnits(m.custodyRefunds));
}

/** A list of transactions: sale time, terminal, id, division, total (and cash effect when given). */
export function TransactionTable({
  t,
  rows,
  names,
  cash,
}: {
  t: Translate<Key>;
  rows: Transaction[];
  names: ReadonlyMap<string, string>;
  cash?: (x: Transaction) => string;
}) {
  const f = useFormat();
  const sales = transactionColumns(t, f, names);
  const columns: Column<Transaction>[] = [sales.dateTime, sales.terminal, sales.id, sales.division, { key: 'total', header: t('col.total'), num: true, cell: (x) => f.yen(x.total) }];
  if (cash) columns.push({ key: 'cash', header: t('col.cash'), num: true, cell: (x) => f.yen(cash(x)) });
  return <DataTable wrap="table-scroll" className="striped" rows={rows} rowKey={(x) => x.transactionHeadId} rowProps={(x) => ({ 'data-transaction-id': x.transactionHeadId })} columns={columns} />;
}
