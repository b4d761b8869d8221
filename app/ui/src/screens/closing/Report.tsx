import type { components } from '../../api/schema';
import { useFormat } from '../../shared/format';
import type { Translate } from '../../i18n';
import { terminalName, transactionKind } from '../../shared/salesLabels';
import { fromUnits, toUnits } from '../../shared/money';
import type { Transaction } from '../../shared/sales';
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
          <table data-testid="report-taxes">
            <thead>
              <tr>
                <th scope="col">{t('report.taxRate')}</th>
                <th scope="col" className="num">{t('report.taxIncludedSales')}</th>
                <th scope="col" className="num">{t('report.taxIncluded')}</th>
                <th scope="col" className="num">{t('report.taxExcludedSales')}</th>
                <th scope="col" className="num">{t('report.taxExcludedAmount')}</th>
                <th scope="col" className="num">{t('report.taxableBase')}</th>
                <th scope="col" className="num">{t('report.tax')}</th>
              </tr>
            </thead>
            <tbody>
              {r.taxes.map((x) => (
                <tr key={x.taxRate} data-tax-rate={x.taxRate}>
                  <th scope="row">{x.taxRate}%</th>
                  <td className="num">{y(x.taxIncludedSales)}</td>
                  <td className="num">{y(x.taxIncluded)}</td>
                  <td className="num">{y(x.taxExcludedSales)}</td>
                  <td className="num">{y(x.taxExcluded)}</td>
                  <td className="num">{y(x.taxableBase)}</td>
                  <td className="num" data-value={x.tax}>{y(x.tax)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>{t('report.noTaxes')}</p>
        )}
      </section>

      <section>
        <h3>{t('report.byTerminal')}</h3>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('col.terminal')}</th>
              <th scope="col" className="num">{t('col.sales')}</th>
              <th scope="col" className="num">{t('report.total')}</th>
              <th scope="col" className="num">{t('payment.cash')}</th>
              <th scope="col" className="num">{t('payment.credit')}</th>
              <th scope="col" className="num">{t('report.cashMoves')}</th>
            </tr>
          </thead>
          <tbody>
            {summary.report.terminals.map((x) => (
              <tr key={x.terminalId}>
                <th scope="row">{terminalName(t, names, x.terminalId)}</th>
                <td className="num">{x.counts.sales}</td>
                <td className="num">{y(x.sales.total)}</td>
                <td className="num">{y(x.payments.cash)}</td>
                <td className="num">{y(x.payments.credit)}</td>
                <td className="num">{y(cashMoves(x))}</td>
              </tr>
            ))}
          </tbody>
        </table>
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
  return (
    <div className="table-scroll">
      <table className="striped">
        <thead>
          <tr>
            <th scope="col">{t('col.time')}</th>
            <th scope="col">{t('col.terminal')}</th>
            <th scope="col">{t('col.id')}</th>
            <th scope="col">{t('col.division')}</th>
            <th scope="col" className="num">{t('col.total')}</th>
            {cash ? <th scope="col" className="num">{t('col.cash')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((x) => (
            <tr key={x.transactionHeadId} data-transaction-id={x.transactionHeadId}>
              <td>{f.dateTime(x.terminalTranDateTime)}</td>
              <td>{terminalName(t, names, x.terminalId)}</td>
              <td>{x.transactionHeadId}</td>
              <td>{transactionKind(t, x)}</td>
              <td className="num">{f.yen(x.total)}</td>
              {cash ? <td className="num">{f.yen(cash(x))}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
