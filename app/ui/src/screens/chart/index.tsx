import { Decimal } from 'decimal.js';
import { useMemo, useState } from 'react';
import { DataTable } from '../../components/DataTable';
import { SelectFilter } from '../../components/FilterBar';
import { FormProblem } from '../../components/FormProblem';
import { Loading } from '../../components/LoadState';
import { useLang, useT } from '../../i18n';
import { navigate, type ScreenProps } from '../../router';
import { LOCALES, useFormat } from '../../shared/format';
import { useStores } from '../../shared/stores';
import { useDailySales, type DaySales } from './dailySales';
import { messages } from './i18n';
import { SalesChart } from './SalesChart';
import './chart.css';

/**
 * Sales of the last 31 days (`#/chart?store=<id>`): a bar chart and, beside it, a table of the
 * same figures (for screen readers and for reading exact amounts). Figures come from the
 * transaction list (see dailySales.ts); the store selector narrows it to one store.
 */
export function ChartScreen({ query }: ScreenProps) {
  const t = useT(messages);
  const { lang } = useLang();
  const format = useFormat();
  const today = format.today();
  const stores = useStores();
  const storeId = query.get('store') ?? '';
  const [reload, setReload] = useState(0);
  const sales = useDailySales(storeId, today, format.timeZone, reload);

  const short = useMemo(() => new Intl.DateTimeFormat(LOCALES[lang], { timeZone: 'UTC', month: 'numeric', day: 'numeric' }), [lang]);
  const long = useMemo(() => new Intl.DateTimeFormat(LOCALES[lang], { timeZone: 'UTC', month: 'short', day: 'numeric', weekday: 'short' }), [lang]);
  const days: DaySales[] = sales.state === 'done' ? sales.days : [];
  const labels = useMemo(() => days.map((d) => short.format(new Date(`${d.date}T00:00:00Z`))), [days, short]);
  const values = useMemo(() => days.map((d) => d.total.toNumber()), [days]);
  const sum = days.reduce((s, d) => s.plus(d.total), new Decimal(0));
  const period = days.length ? { from: format.date(days[0]!.date), to: format.date(days[days.length - 1]!.date) } : null;

  return (
    <section className="chart-screen">
      <h1>{t('chart.title')}</h1>
      <form className="chart-toolbar" onSubmit={(e) => e.preventDefault()}>
        <SelectFilter
          label={<span>{t('chart.store')}</span>}
          name="store"
          value={storeId}
          onChange={(v) => navigate(v ? `/chart?store=${encodeURIComponent(v)}` : '/chart')}
          any={t('chart.allStores')}
          options={stores.state === 'done' ? stores.data.map((s) => ({ value: s.storeId, label: s.storeName })) : []}
        />
        {period ? <span>{t('chart.period', period)}</span> : null}
        <button type="button" className="secondary outline" onClick={() => setReload((n) => n + 1)}>
          {t('chart.reload')}
        </button>
      </form>
      {stores.state === 'error' ? <FormProblem problem={stores.problem} /> : null}
      {sales.state === 'error' ? <FormProblem problem={sales.problem} /> : null}
      {sales.state === 'loading' ? <Loading /> : null}
      {sales.state === 'done' ? (
        <>
          {sales.truncated ? <p className="notice">{t('chart.truncated')}</p> : null}
          <div className="chart-layout">
            <figure className="chart-figure">
              <SalesChart labels={labels} values={values} seriesLabel={t('chart.series')} xLabel={t('chart.date')} description={period ? t('chart.chartLabel', period) : t('chart.title')} />
              <figcaption>
                <small>{t('chart.method', { zone: format.timeZone })}</small>
              </figcaption>
            </figure>
            <div className="chart-table-wrap" role="region" aria-labelledby="chart-table-caption" tabIndex={0}>
              <DataTable
                className="striped chart-table"
                data-testid="sales-table"
                data-store={sales.storeId}
                caption={t('chart.table')}
                captionProps={{ id: 'chart-table-caption' }}
                rows={days}
                rowKey={(d) => d.date}
                rowProps={(d) => ({ 'data-date': d.date })}
                columns={[
                  { key: 'date', header: t('chart.date'), rowHeader: true, cell: (d) => <time dateTime={d.date}>{long.format(new Date(`${d.date}T00:00:00Z`))}</time> },
                  { key: 'count', header: t('chart.count'), num: true, cell: (d) => d.count },
                  { key: 'total', header: t('chart.total'), num: true, cell: (d) => format.yen(d.total.toFixed()), cellProps: () => ({ 'data-testid': 'day-total' }) },
                ]}
                foot={
                  <tr>
                    <th scope="row">{t('chart.sum')}</th>
                    <td className="num">{days.reduce((n, d) => n + d.count, 0)}</td>
                    <td className="num" data-testid="sum-total">
                      {format.yen(sum.toFixed())}
                    </td>
                  </tr>
                }
              />
            </div>
          </div>
        </>
      ) : null}
    </section>
  );
}
