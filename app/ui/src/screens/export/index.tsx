import { useState, type FormEvent } from 'react';
import { call, useApi } from '../../api/client';
import { fieldError, type ProblemView } from '../../api/problem';
import { Field } from '../../components/Field';
import { FormProblem } from '../../components/FormProblem';
import { ScreenHead } from '../../components/ScreenHead';
import { SelectField } from '../../components/SelectField';
import { useLang, useT } from '../../i18n';
import type { ScreenProps } from '../../router';
import { useFormat } from '../../shared/format';
import { useStores } from '../../shared/stores';
import { ColumnPicker } from './ColumnPicker';
import { COLUMN_LABELS_JA, EXPORT_SORT_KEYS, type ExportColumn, type ExportSortKey } from './columns';
import { CurrentExport, RecentExports } from './ExportStatus';
import { messages } from './i18n';
import { useRecentExports } from './recent';
import { defaultForm, exportBody, type ExportForm } from './request';
import './export.css';

/** The body fields this form shows a message beside; the API's others go above the button. */
const SHOWN = ['transactionDateTimeFrom', 'transactionDateTimeTo', 'storeId', 'transactionHeadDivision', 'sort', 'fields'];

/**
 * The transaction detail CSV export (spec 4.11, issue 13): the range, the columns, the sort and
 * a store or division; the request is queued on the server, its progress read every second, and
 * the file offered for download when done. The requests of this window's session are kept
 * (sessionStorage), so a reload shows them again.
 */
export function ExportScreen(_props: ScreenProps) {
  const t = useT(messages);
  const { lang } = useLang();
  const f = useFormat();
  const { api, contract } = useApi();
  const stores = useStores();
  const [form, setForm] = useState<ExportForm>(() => defaultForm(f.today()));
  const [problem, setProblem] = useState<ProblemView | null>(null);
  const [busy, setBusy] = useState(false);
  const { exports, add } = useRecentExports(contract.contract_id);
  const set = <K extends keyof ExportForm>(key: K, value: ExportForm[K]) => setForm((old) => ({ ...old, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.columns.length) {
      setProblem({ status: 0, title: '', fields: { fields: t('export.noColumns') }, messages: [] });
      return;
    }
    setBusy(true);
    const body = exportBody(form, f.timeZone);
    const r = await call(api.POST('/{contract_id}/pos/transactions/details/out_file_async', { params: { path: contract }, body }));
    setBusy(false);
    if (!r.ok) {
      setProblem(r.problem);
      return;
    }
    setProblem(null);
    add({
      contractId: contract.contract_id,
      requestCode: r.data.requestCode,
      requestedAt: Date.now(),
      from: body.transactionDateTimeFrom,
      to: body.transactionDateTimeTo,
      columns: form.columns.length,
      sort: body.sort ?? '',
    });
  }

  // Ticking a column answers "choose at least one" at once; the server's own message stays until the next request.
  const chooseColumns = (columns: readonly ExportColumn[]) => {
    set('columns', columns);
    if (columns.length && problem?.status === 0 && problem.fields.fields) setProblem(null);
  };
  const error = (field: string) => fieldError(problem, field);
  const sortLabel = (key: ExportSortKey) => (lang === 'ja' ? `${COLUMN_LABELS_JA[key]} (${key})` : key);
  const [current, ...earlier] = exports;

  return (
    <section className="export-screen">
      <ScreenHead title={t('export.title')} sub={<p className="muted">{t('export.intro')}</p>} />
      <form className="export-layout" onSubmit={(e) => void submit(e)} noValidate aria-label={t('export.request')}>
        <div className="export-main">
          <div className="export-row">
            <Field
              label={t('export.from')}
              name="transactionDateTimeFrom"
              type="datetime-local"
              step={1}
              value={form.from}
              onChange={(e) => set('from', e.target.value)}
              error={error('transactionDateTimeFrom')}
            />
            <Field
              label={t('export.to')}
              name="transactionDateTimeTo"
              type="datetime-local"
              step={1}
              value={form.to}
              onChange={(e) => set('to', e.target.value)}
              error={error('transactionDateTimeTo')}
            />
          </div>
          <p className="export-hint muted">
            <small>{t('export.zoneHint', { zone: f.timeZone })}</small>
          </p>
          <div className="export-row">
            <SelectField
              label={t('export.store')}
              name="storeId"
              value={form.storeId}
              onChange={(v) => set('storeId', v)}
              any={t('export.allStores')}
              options={stores.state === 'done' ? stores.data.map((s) => ({ value: s.storeId, label: s.storeName })) : []}
              error={error('storeId')}
            />
            <SelectField
              label={t('export.headDivision')}
              name="transactionHeadDivision"
              value={form.headDivision}
              onChange={(v) => set('headDivision', v as ExportForm['headDivision'])}
              any={t('export.allDivisions')}
              options={(['1', '10'] as const).map((d) => ({ value: d, label: t(`export.division.${d}`) }))}
              error={error('transactionHeadDivision')}
            />
          </div>
          <div className="export-row">
            <SelectField
              label={t('export.sortKey')}
              name="sort"
              value={form.sortKey}
              onChange={(v) => set('sortKey', v as ExportSortKey)}
              options={EXPORT_SORT_KEYS.map((key) => ({ value: key, label: sortLabel(key) }))}
              error={error('sort')}
              hint={t('export.sortHint')}
            />
            <SelectField
              label={t('export.sortOrder')}
              name="sortOrder"
              value={form.sortDesc ? 'desc' : 'asc'}
              onChange={(v) => set('sortDesc', v === 'desc')}
              options={[
                { value: 'asc', label: t('export.asc') },
                { value: 'desc', label: t('export.desc') },
              ]}
            />
          </div>
          {stores.state === 'error' ? <FormProblem problem={stores.problem} /> : null}
          <FormProblem problem={problem} shown={SHOWN} />
          <button type="submit" data-testid="export-submit" aria-busy={busy || undefined} disabled={busy}>
            {busy ? t('export.submitting') : t('export.submit')}
          </button>
          {current ? <CurrentExport t={t} tracked={current} /> : <p className="muted">{t('export.none')}</p>}
        </div>
        <ColumnPicker t={t} chosen={form.columns} onChange={chooseColumns} error={error('fields')} />
      </form>
      <RecentExports t={t} exports={earlier} />
    </section>
  );
}
